package io.boltgen.runtime.internal;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** Opens one connection: the client's bootstrap. */
@FunctionalInterface
interface Connector {

  /** Starts connecting to {@code address}; the future completes with the connection or the failure. */
  CompletableFuture<BoltConnection> connect(InetSocketAddress address);
}
