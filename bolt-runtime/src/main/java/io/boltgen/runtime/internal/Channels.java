package io.boltgen.runtime.internal;

import io.netty.channel.ChannelOutboundInvoker;

/**
 * Closing a channel without watching the close: the one place that says why its future can be ignored. Public
 * only for the internal packages; not API.
 */
public final class Channels {

  private Channels() {}

  /**
   * Starts closing {@code channel} (a channel, or a handler's context: then the close starts at that handler).
   * The returned future is not needed: a close that fails (closing the socket threw) still marks the channel
   * closed, completes its close future and fires {@code channelInactive}, which fails the connection's calls, and
   * nothing more could be done about it.
   */
  @SuppressWarnings("FutureReturnValueIgnored") // see above: a close's failure changes nothing
  public static void close(ChannelOutboundInvoker channel) {
    channel.close();
  }
}
