package io.boltgen.runtime.client;

import io.boltgen.runtime.transport.BoltConnection;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/** Opens one connection: the client's bootstrap. */
@FunctionalInterface
public interface Connector {

  /** Starts connecting to {@code address}; the future completes with the connection or the failure. */
  CompletableFuture<BoltConnection> connect(InetSocketAddress address);
}
