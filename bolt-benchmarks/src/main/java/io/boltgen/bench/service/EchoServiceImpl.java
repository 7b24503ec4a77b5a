package io.boltgen.bench.service;

import java.util.concurrent.CompletableFuture;

/** The server side of {@link EchoService}: returns what it was given, doing nothing else. */
public final class EchoServiceImpl implements EchoService {

  @Override
  public byte[] echo(byte[] payload) {
    return payload;
  }

  @Override
  public CompletableFuture<byte[]> echoAsync(byte[] payload) {
    return CompletableFuture.completedFuture(payload);
  }
}
