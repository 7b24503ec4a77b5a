package io.boltgen.bench.service;

import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;

/**
 * The service every boltgen load case calls: an echo of opaque bytes, once blocking and once as a future.
 * The processor generates {@code EchoServiceBolt} from it (stub, skeleton, codecs), which the load
 * generator drives.
 */
@BoltService(name = "bench.Echo", version = "1.0", timeoutMillis = 3000)
public interface EchoService {

  /** Returns {@code payload}. */
  byte[] echo(byte[] payload);

  /** Returns {@code payload}, as a future. */
  CompletableFuture<byte[]> echoAsync(byte[] payload);
}
