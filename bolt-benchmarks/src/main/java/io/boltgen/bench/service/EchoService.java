package io.boltgen.bench.service;

import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The service every boltgen load case calls: an echo of opaque bytes, once blocking and once as a future; and a
 * server stream of them, which gRPC callers call ({@code grpc-stream-to-boltgen}).
 * The processor generates {@code EchoServiceBolt} from it (stub, skeleton, codecs), which the load
 * generator drives.
 */
@BoltService(name = "bench.Echo", version = "1.0", timeoutMillis = 3000)
public interface EchoService {

  /** Returns {@code payload}. */
  byte[] echo(byte[] payload);

  /** Returns {@code payload}, as a future. */
  CompletableFuture<byte[]> echoAsync(byte[] payload);

  /** Streams {@code payload} {@value EchoServiceImpl#STREAM_MESSAGES} times, as fast as the caller reads. */
  Flow.Publisher<byte[]> stream(byte[] payload);
}
