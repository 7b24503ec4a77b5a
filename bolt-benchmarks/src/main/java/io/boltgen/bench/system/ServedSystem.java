package io.boltgen.bench.system;

import java.nio.file.Path;

/**
 * A server the benchmarks load, in one configuration: started in a JVM of its own, loaded by a client of its
 * {@link EchoSystem} or, for a server alone such as the HTTP ceiling, by wrk.
 */
public interface ServedSystem {

  /** The name used on the command line and in tables, e.g. {@code boltgen} or {@code grpc-direct}. */
  String id();

  /** The product, e.g. {@code boltgen}, {@code sofabolt}, {@code grpc}, {@code netty}. */
  String family();

  /** What is configured, in a few words, for the report. */
  String description();

  /**
   * Why this system cannot run in this JVM (a native library it needs does not load, say), or null when it
   * can; checked before a run starts, so that a missing piece fails the command at once, not minutes in.
   */
  default String unavailable() {
    return null;
  }

  /** The java executable of its server and client JVMs; null (the default): this JVM's. */
  default Path java() {
    return null;
  }

  /** Starts the echo server on {@code host:port} (port 0: any free port). */
  EchoServer startServer(String host, int port) throws Exception;

  /** A running echo server. */
  interface EchoServer extends AutoCloseable {
    /** The bound port. */
    int port();

    /** Stops the server and releases its threads. */
    @Override
    void close();

    /** A server bound to {@code port} that {@code close} stops. */
    static EchoServer of(int port, Runnable close) {
      return new EchoServer() {
        @Override
        public int port() {
          return port;
        }

        @Override
        public void close() {
          close.run();
        }
      };
    }
  }
}
