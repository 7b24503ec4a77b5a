package io.boltgen.runtime.internal;

import io.boltgen.runtime.Connection;
import io.netty.channel.Channel;
import java.util.function.BooleanSupplier;

/**
 * A server connection as a {@link PortProtocol} that took it over sees it: the Bolt connection keeps its
 * lifecycle (open and close events, TLS identity, idle timeout, the server's limits), and the protocol tells it
 * how many of its requests are open, so that the connection's read throttle bounds them as it bounds Bolt's.
 *
 * <p>Public only for the internal packages that implement a port protocol; not API. Methods marked IO thread
 * are called on the connection's event loop.
 */
public interface PortConnection extends Connection {

  /** The connection of {@code channel}, a server's accepted channel. */
  static PortConnection of(Channel channel) {
    return channel.attr(BoltConnection.KEY).get();
  }

  /** The peer speaks another protocol on it: Bolt calls to the peer fail at once (IO thread, before any request). */
  void takenOver();

  /** Reads pause while {@code maxOpen} requests are open, instead of the server's limit (IO thread). */
  void limitOpenRequests(int maxOpen);

  /** {@code count} requests were read and handed on; each is matched by one {@link #requestClosed()}. */
  void requestsOpened(int count);

  /** A request is no longer open: its answer was handed to the channel, or it ended without one. */
  void requestClosed();

  /** A read was handed on: pause reading if too much is open now (IO thread). */
  void afterRead();

  /**
   * Holds reads while {@code hold} is true, whatever else allows them, and releases them with false (IO thread): a
   * request whose body streams has a message its call did not ask for yet, so the peer waits, its bytes unread.
   */
  void holdReads(boolean hold);

  /** Bytes of a request arrived from the peer (IO thread): it answered, so the connection worked. */
  void markReceived();

  /** Bytes were written to the peer (IO thread): the connection is not idle (a long streamed answer). */
  void markWritten();

  /**
   * The connection is not idle while {@code callsInProgress} says calls are in progress on it (IO thread; asked
   * on the IO thread when the idle time has passed): for a protocol whose peers do not heartbeat (HTTP), so that a
   * quiet stream or a slow handler does not have its connection closed under it.
   */
  void busyWhile(BooleanSupplier callsInProgress);

  /** The peer's address as text, made once: for log lines. */
  String remoteText();
}
