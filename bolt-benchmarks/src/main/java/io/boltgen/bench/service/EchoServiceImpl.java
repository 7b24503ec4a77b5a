package io.boltgen.bench.service;

import io.boltgen.runtime.Publishers;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/** The server side of {@link EchoService}: returns what it was given, doing nothing else. */
public final class EchoServiceImpl implements EchoService {

  /** The messages of one {@link #stream}, on every system that streams. */
  public static final int STREAM_MESSAGES = 100;

  @Override
  public byte[] echo(byte[] payload) {
    return payload;
  }

  @Override
  public CompletableFuture<byte[]> echoAsync(byte[] payload) {
    return CompletableFuture.completedFuture(payload);
  }

  @Override
  public Flow.Publisher<byte[]> stream(byte[] payload) {
    return Publishers.of(Collections.nCopies(STREAM_MESSAGES, payload));
  }
}
