package io.boltgen.runtime.transport;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.invoke.CallChannel;
import io.boltgen.runtime.invoke.CallTable;
import io.boltgen.runtime.invoke.CallTarget;
import io.boltgen.runtime.invoke.PendingCall;
import io.boltgen.runtime.protocol.Bolt;
import io.boltgen.runtime.protocol.BoltFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One Bolt connection: a Netty channel, the calls waiting on it, its write queue, its frame format and, on
 * a client, its heartbeat. Calls are encoded on the caller's thread, registered, and queued; responses
 * are matched on the IO thread.
 *
 * <p>The frame format: a client sends what it was configured with; a server latches the protocol code
 * and version of the first frame it receives and answers in that format (before any frame it uses its own
 * configured one), as SOFABolt does.
 *
 * <p>Thread-safe.
 */
public final class BoltConnection implements Connection, CallTarget {

  /** Where a channel keeps its connection. */
  public static final AttributeKey<BoltConnection> KEY = AttributeKey.valueOf(BoltConnection.class, "connection");

  private final Channel channel;
  private final Endpoint endpoint;
  private final WriteQueue writes;
  private final CallTable calls = new CallTable();
  private final AtomicInteger ids = new AtomicInteger();
  private final CallChannel callChannel;
  private final Heartbeat heartbeat;
  private volatile SocketAddress remoteAddress;
  private volatile SocketAddress localAddress;
  private volatile byte protocolCode;
  private volatile byte version;
  private volatile byte switchFlags;
  private volatile boolean latched;
  private final java.util.concurrent.CompletableFuture<Void> inactive = new java.util.concurrent.CompletableFuture<>();

  BoltConnection(Channel channel, Endpoint endpoint) {
    this.channel = channel;
    this.endpoint = endpoint;
    this.writes = new WriteQueue(channel);
    this.callChannel = new CallChannel(this, endpoint.calls());
    EndpointSettings settings = endpoint.settings();
    WireProtocol protocol = settings.protocol();
    this.protocolCode = protocol.protocolCode();
    this.version = protocol.version();
    this.switchFlags = protocol.switchFlags();
    this.latched = settings.client();
    this.heartbeat = settings.client() && settings.heartbeatIntervalMillis() > 0
        ? new Heartbeat(this, endpoint.shared().timer(), settings.heartbeatTimeoutMillis(), settings.heartbeatMaxMisses())
        : null;
    channel.attr(KEY).set(this);
  }

  // ---------------------------------------------------------------- sending calls

  @Override
  public void send(PendingCall<?> call) {
    if (!channel.isActive()) {
      call.fail(new BoltException(ResponseStatus.CONNECTION_CLOSED, "connection to " + remoteAddress() + " is closed",
          null, null, remoteAddress(), 0, null));
      return;
    }
    if (!isWritable()) {
      call.fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "connection to " + remoteAddress()
          + " is not writable (its write buffer is over the " + endpoint.settings().highWaterMark()
          + "-byte high water mark): call " + call.method().wireName() + " refused",
          null, null, remoteAddress(), 0, null));
      return;
    }
    int id = nextId();
    ByteBuf frame = call.encode(channel.alloc(), protocolCode, version, switchFlags, id);
    if (frame == null) {
      return; // failed to encode; the call says why
    }
    if (!call.attach(calls, id, remoteAddress())) {
      frame.release();
      return;
    }
    if (call.isOneway()) {
      writes.enqueue(frame);
      call.complete(null);
    } else {
      int bytes = frame.readableBytes();
      call.setOutbound(frame);
      writes.enqueue(call, bytes);
    }
  }

  /** Queues an encoded frame (response, heartbeat); takes ownership. */
  public void writeFrame(ByteBuf frame) {
    if (!channel.isActive()) {
      frame.release();
      return;
    }
    writes.enqueue(frame);
  }

  /** Queues a frame the IO thread will encode (a server's answer). */
  public void write(DeferredFrame frame) {
    if (channel.isActive()) {
      writes.enqueue(frame);
    }
  }

  /**
   * Queues a frame the IO thread will encode, without waking it yet. The caller must call
   * {@link #flushLater()} once its batch is done.
   */
  public void writeLater(DeferredFrame frame) {
    if (channel.isActive()) {
      writes.enqueueLater(frame);
    }
  }

  /** Writes whatever {@link #writeLater} queued. */
  public void flushLater() {
    writes.flush();
  }

  int nextId() {
    int id = ids.incrementAndGet();
    return id != 0 ? id : ids.incrementAndGet();
  }

  // ---------------------------------------------------------------- inbound, on the IO thread

  /**
   * Latches the protocol code and version of the first frame (a heartbeat counts, as in SOFABolt).
   * Requests this side sends on a V2 connection set the CRC switch, as a SOFABolt client does by default
   * (it only takes effect with version 2): the switch of the first frame is not latched, since a
   * heartbeat always carries 0.
   */
  void latch(BoltFrame frame) {
    if (!latched) {
      protocolCode = frame.protocolCode();
      version = frame.version();
      switchFlags = protocolCode == Bolt.PROTOCOL_V2 ? Bolt.SWITCH_CRC : 0;
      latched = true;
    }
  }

  CallTable calls() {
    return calls;
  }

  /** The calls waiting for their response right now. */
  public java.util.List<PendingCall<?>> pendingSnapshot() {
    return calls.snapshot();
  }

  Heartbeat heartbeat() {
    return heartbeat;
  }

  Endpoint endpoint() {
    return endpoint;
  }

  void onActive() {
    remoteAddress = channel.remoteAddress();
    localAddress = channel.localAddress();
  }

  void onInactive() {
    failPending("connection to " + remoteAddress() + " closed while the call waited for its response");
    writes.discardAll();
    if (heartbeat != null) {
      heartbeat.stop();
    }
  }

  // ---------------------------------------------------------------- the format responses use

  /** The protocol code responses on this connection use. */
  public byte protocolCode() {
    return protocolCode;
  }

  /** The V2 version responses on this connection use. */
  public byte version() {
    return version;
  }

  /** The allocator of this connection's channel. */
  public ByteBufAllocator alloc() {
    return channel.alloc();
  }

  /** The event loop of this connection's channel. */
  public io.netty.channel.EventLoop eventLoop() {
    return channel.eventLoop();
  }

  // ---------------------------------------------------------------- Connection

  @Override
  public SocketAddress remoteAddress() {
    SocketAddress address = remoteAddress;
    return address != null ? address : channel.remoteAddress();
  }

  @Override
  public SocketAddress localAddress() {
    SocketAddress address = localAddress;
    return address != null ? address : channel.localAddress();
  }

  @Override
  public boolean isActive() {
    return channel.isActive();
  }

  @Override
  public boolean isWritable() {
    return channel.isWritable() && writes.queuedBytes() < endpoint.settings().maxQueuedBytes();
  }

  @Override
  public int pendingCalls() {
    return calls.size();
  }

  @Override
  public BoltChannel channel() {
    return callChannel;
  }

  @Override
  public void close() {
    closeAsync();
  }

  /**
   * Fails every pending call with CONNECTION_CLOSED at once, then closes the channel; the future
   * completes once it is closed.
   */
  public ChannelFuture closeAsync() {
    failPending("connection to " + remoteAddress() + " was closed by this side");
    return channel.close();
  }

  private void failPending(String why) {
    SocketAddress remote = remoteAddress();
    calls.closeAll(() -> new BoltException(ResponseStatus.CONNECTION_CLOSED, why, null, null, remote, 0, null));
  }

  /**
   * Completes once the channel went inactive and everything that follows from it happened: pending calls
   * failed, the close event fired. (The channel's close future completes earlier than that.)
   */
  public java.util.concurrent.CompletableFuture<Void> inactiveFuture() {
    return inactive;
  }

  void markInactive() {
    inactive.complete(null);
  }

  /** Completes when the channel is closed (does not close it). */
  public ChannelFuture closeFuture() {
    return channel.closeFuture();
  }

  @Override
  public String toString() {
    return "BoltConnection{" + localAddress() + " -> " + remoteAddress() + ", pending=" + calls.size() + '}';
  }
}
