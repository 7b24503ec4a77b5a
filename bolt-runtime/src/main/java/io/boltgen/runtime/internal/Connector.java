package io.boltgen.runtime.internal;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** Opens one connection: the client's bootstrap. */
@FunctionalInterface
public interface Connector {

  /**
   * Starts connecting to {@code address} for the pool's slot {@code slot} (a pool of several connections
   * spreads them over the IO threads by slot); the future completes with the connection or the failure.
   */
  CompletableFuture<BoltConnection> connect(InetSocketAddress address, int slot);
}
