package io.boltgen.bench.service;

import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;

/**
 * The service of the {@code cluster} benchmark: an echo that also says which instance answered, so that the
 * client can count the share of calls its balancing policy sent to each instance. The processor generates
 * {@code ClusterEchoServiceBolt} from it.
 */
@BoltService(name = "bench.ClusterEcho", version = "1.0", timeoutMillis = 3000)
public interface ClusterEchoService {

  /** Returns {@code payload} and the index of the instance that answered. */
  CompletableFuture<ClusterEchoReply> echo(byte[] payload);
}
