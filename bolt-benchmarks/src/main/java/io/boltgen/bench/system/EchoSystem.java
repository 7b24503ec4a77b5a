package io.boltgen.bench.system;

import java.util.ArrayList;
import java.util.List;

/**
 * One RPC system in one configuration, as the load generator drives it: an echo server in one JVM ({@link
 * ServedSystem}), an echo client in another. Every system runs exactly the same workloads (see {@link Workload}).
 */
public interface EchoSystem extends ServedSystem {

  /** Connects a client to a running server, ready to call (its connection is up). */
  EchoClient connect(String host, int port) throws Exception;

  /**
   * Connects {@code n} clients to a running server, each over a TCP connection of its own, as {@code n} client
   * processes would, sharing what the system's clients share within a JVM anyway. Unless a system says
   * otherwise, {@code n} times {@link #connect}.
   */
  default ClientGroup connectMany(String host, int port, int n) throws Exception {
    List<EchoClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        clients.add(connect(host, port));
      }
    } catch (Exception | Error e) {
      new ClientGroup(clients, () -> { }).close();
      throw e;
    }
    return new ClientGroup(clients, () -> { });
  }

  /**
   * Clients made together by {@link #connectMany}; closing the group closes each, then what they shared.
   *
   * @param clients one per connection
   * @param closeShared releases what the clients shared (an event loop group, an executor)
   */
  record ClientGroup(List<EchoClient> clients, Runnable closeShared) implements AutoCloseable {
    @Override
    public void close() {
      for (EchoClient c : clients) {
        try {
          c.close();
        } catch (RuntimeException e) {
          // close the others anyway
        }
      }
      closeShared.run();
    }
  }

  /** An echo client: one connection to one server. Thread-safe. */
  interface EchoClient extends AutoCloseable {
    /**
     * Sends {@code payload} and blocks until the echo arrives; returns the echoed payload's length (each
     * system hands the echo over in its own natural form, which the harness does not copy again); throws
     * on any failure.
     */
    int call(byte[] payload) throws Exception;

    /**
     * Sends {@code payload} without blocking; {@code done} runs exactly once with the echo's length or the failure,
     * on whatever thread the system delivers it (it may be the caller's when the call fails at once).
     */
    void call(byte[] payload, Completion done);

    /** Closes the connection and releases the client's threads. */
    @Override
    void close();
  }

  /** Receives the outcome of {@link EchoClient#call(byte[], Completion)}. */
  @FunctionalInterface
  interface Completion {
    /** {@code error} is null on success; then {@code responseLength} is the echoed payload's length. */
    void done(int responseLength, Throwable error);
  }
}
