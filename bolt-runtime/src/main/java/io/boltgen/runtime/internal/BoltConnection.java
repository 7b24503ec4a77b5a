package io.boltgen.runtime.internal;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.Connection;
import io.boltgen.runtime.PeerIdentity;
import io.boltgen.runtime.ResponseStatus;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.wire.BoltFrame;
import io.boltgen.runtime.internal.wire.FrameFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.Ticker;
import java.net.SocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * One Bolt connection: a Netty channel ({@code nettyChannel}; "channel" alone means the {@link BoltChannel} calls are
 * sent over, see {@link #channel()}), the calls waiting on it, its write queue, its frame format and, on a client, its
 * heartbeat; on a server, the throttle that stops reading it while its peer does not keep up. Calls are encoded on
 * the caller's thread, registered, and queued; responses are matched on the IO thread.
 *
 * <p>Limits: a request frame larger than the peer accepts fails its call alone before anything is written; a call
 * whose frame would take the write queue past its budget of queued bytes fails alone; otherwise a call waits in the
 * queue, within its own timeout, until the Netty channel can take it.
 *
 * <p>The frame format: a client sends what it was configured with; a server latches the protocol code and version of
 * the first frame it receives and answers in that format (before any frame it uses its own configured one), as
 * SOFABolt does. Thread-safe.
 */
public final class BoltConnection implements PortConnection, CallTarget {

  /** Where a Netty channel keeps its connection. */
  public static final AttributeKey<BoltConnection> KEY = AttributeKey.valueOf(BoltConnection.class, "connection");

  private final Channel nettyChannel;
  private final Endpoint endpoint;
  private final WriteQueue writes;
  private final CallTable calls;
  private final BoltStreams streams = new BoltStreams(this);
  private final AtomicInteger ids = new AtomicInteger();
  private volatile long activeNanos;
  private volatile long firstWriteNanos; // 0 until this side wrote a frame
  private final CallChannel callChannel;
  private final Heartbeat heartbeat;
  private final ReadThrottle throttle;
  // run once on close (IO thread) unless removed first: cancelling served calls whose handlers listen for it
  public final Set<Runnable> closeHooks = ConcurrentHashMap.newKeySet();
  private final IdleTimeout idleTimeout; // a server's; null on a client or without an idle timeout
  private final EndpointSettings settings;
  private volatile SocketAddress remoteAddress;
  private String remoteText;
  // set on the IO thread when a port protocol took the connection over (HTTP), before any request is read
  private volatile boolean http;
  private volatile SocketAddress localAddress;
  private volatile FrameFormat format;
  private volatile boolean latched;
  private volatile PeerIdentity peerIdentity;
  private volatile boolean received;
  private final CompletableFuture<Void> inactive = new CompletableFuture<>();
  // where the calls a read brings start (IO thread only; made with the first request)
  private ServerCalls.Dispatch dispatch;

  BoltConnection(Channel nettyChannel, Endpoint endpoint) {
    this.nettyChannel = nettyChannel;
    this.endpoint = endpoint;
    EndpointSettings settings = endpoint.settings();
    this.settings = settings;
    this.idleTimeout = !settings.client() && settings.idleTimeoutMillis() > 0
        ? new IdleTimeout(nettyChannel, settings.idleTimeoutMillis()) : null;
    this.writes = new WriteQueue(nettyChannel, endpoint.shared().outboundMemory(), idleTimeout);
    this.calls = new CallTable(endpoint.calls().timer(), endpoint.calls().ticker(), streams);
    this.callChannel = new CallChannel(this, endpoint.calls());
    this.throttle = settings.client() ? null : new ReadThrottle(nettyChannel, settings.maxRequestsPerConnection());
    WireProtocol own = settings.client() ? nettyChannel.attr(Endpoint.PROTOCOL).get() : null;
    this.format = FrameFormat.of(own != null ? own : settings.protocol());
    this.latched = settings.client();
    this.heartbeat = settings.client() && settings.heartbeatIntervalMillis() > 0
        ? new Heartbeat(this, endpoint.calls().timer(), settings.heartbeatTimeoutMillis(), settings.heartbeatMaxMisses())
        : null;
    nettyChannel.attr(KEY).set(this);
  }

  // ---------------------------------------------------------------- sending calls

  /**
   * Sends {@code call}: gives it a request id, encodes its frame here on the caller's thread (checked
   * against the largest frame the peer accepts before anything is allocated), registers it in the call
   * table and queues the frame. Every refusal fails the call saying why.
   */
  @Override
  public void send(PendingCall<?> call) {
    if (http) {
      // a Bolt frame written into an HTTP connection would corrupt it: the peer cannot be called back
      call.fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "the peer " + remoteAddress()
          + " reached this server over HTTP: it serves no Bolt calls, so it cannot be called back", null, null,
          remoteAddress(), 0, null));
      return;
    }
    if (!nettyChannel.isActive()) { // closed meanwhile: failed once the pool heard of it (its listener is first)
      nettyChannel.closeFuture().addListener(f -> call.fail(new BoltException(ResponseStatus.CONNECTION_CLOSED,
          closedWhy("before the call was sent"), null, null, remoteAddress(), 0, null)));
      return;
    }
    int id = nextId();
    ByteBuf frame = OutboundRequest.encode(call, id, nettyChannel.alloc(), format, endpoint.calls().wireNames(),
        settings.peerMaxFrameLength());
    if (frame == null) {
      return; // failed to encode (or too large); the call says why
    }
    if (!call.attach(calls, id, remoteAddress())) {
      frame.release();
      return;
    }
    int bytes = frame.readableBytes();
    long budget = settings.maxQueuedBytes();
    if (call.isOneway()) {
      if (writes.tryEnqueue(frame, budget)) {
        call.sent();
        return;
      }
      frame.release();
    } else {
      OutboundRequest request = new OutboundRequest(call, frame);
      if (writes.tryEnqueue(request, bytes, budget)) {
        OutgoingRequests stream = call.outgoing();
        if (stream != null) {
          stream.opened(this, id); // its messages follow its request, as its server grants them
        }
        return;
      }
      request.takeFrame().release();
    }
    call.fail(new BoltException(ResponseStatus.CLIENT_SEND_ERROR, "call " + call.method().toString() + " ("
        + bytes + " bytes) refused: the connection to " + remoteAddress() + " already holds " + writes.queuedBytes()
        + " bytes of frames waiting to be written, and its limit is " + budget
        + " bytes (maxQueuedBytes); the peer reads slower than calls arrive", null, null, remoteAddress(), id, null));
  }

  /** Queues an encoded frame (response, heartbeat); takes ownership. */
  public void writeFrame(ByteBuf frame) {
    if (nettyChannel.isActive()) {
      writes.enqueue(frame);
    } else {
      frame.release();
    }
  }

  /** Queues a frame the IO thread will encode (a server's answer). */
  public void write(DeferredFrame frame) {
    if (nettyChannel.isActive()) {
      writes.enqueue(frame);
    } else {
      frame.discard();
    }
  }

  /** Queues a frame the IO thread will encode, without waking it: the caller then calls {@link #flushLater()}. */
  public void writeLater(DeferredFrame frame) {
    if (nettyChannel.isActive()) {
      writes.enqueueLater(frame);
    } else {
      frame.discard();
    }
  }

  /** Writes whatever {@link #writeLater} queued. */
  public void flushLater() {
    writes.flush();
  }

  // ---------------------------------------------------------------- server side: how much is open

  /** Where the calls of one read of this connection start (IO thread only; reused read after read). */
  public ServerCalls.Dispatch dispatch(ServerCalls calls) {
    if (dispatch == null) {
      dispatch = calls.newDispatch();
    }
    return dispatch;
  }

  @Override
  public void requestsOpened(int count) {
    if (throttle != null) {
      throttle.open(count);
    }
  }

  @Override
  public void requestClosed() {
    if (throttle != null) {
      throttle.close();
    }
  }

  /** Whether this side stopped reading the connection for now (its peer does not keep up). */
  boolean isReadPaused() {
    return throttle != null && throttle.isPaused();
  }

  @Override
  public void afterRead() {
    if (throttle != null) {
      throttle.update();
    }
  }

  @Override
  public void holdReads(boolean hold) {
    if (throttle != null) {
      throttle.hold(hold);
    }
  }

  /** The Netty channel's writability changed: drain what waited, pause or resume reading (IO thread). */
  void onWritabilityChanged() {
    assert nettyChannel.eventLoop().inEventLoop();
    writes.resume();
    if (throttle != null) {
      throttle.update();
    }
    writes.report();
    if (nettyChannel.isWritable()) {
      streams.writable();
    }
  }

  /** Encoded bytes waiting in the write queue plus those the Netty channel has not written to the socket yet. */
  long outboundBytes() {
    return writes.outboundBytes();
  }

  int nextId() {
    int id = ids.incrementAndGet();
    if (id == 1) {
      firstWriteNanos = ticker().nanoTime(); // this side's first frame: a request or a heartbeat
    }
    return id != 0 ? id : ids.incrementAndGet();
  }

  // ---------------------------------------------------------------- inbound, on the IO thread

  /** Latches the format of the first frame (a heartbeat counts, as in SOFABolt): see {@link FrameFormat#latched}. */
  void latch(BoltFrame frame) {
    if (!latched) {
      format = FrameFormat.latched(frame.protocolCode(), frame.version());
      latched = true;
    }
  }

  CallTable calls() {
    return calls;
  }

  /** The streams open on this connection (boltgen's extension of Bolt). */
  public BoltStreams streams() {
    return streams;
  }

  /** The calls waiting for their response right now. */
  public List<PendingCall<?>> pendingSnapshot() {
    return calls.snapshot();
  }

  Heartbeat heartbeat() {
    return heartbeat;
  }

  /** The clock this connection's deadlines are measured on. */
  Ticker ticker() {
    return endpoint.calls().ticker();
  }

  Endpoint endpoint() {
    return endpoint;
  }

  void onActive() {
    activeNanos = ticker().nanoTime();
    if (idleTimeout != null) {
      idleTimeout.start();
    }
    remoteAddress = nettyChannel.remoteAddress();
    localAddress = nettyChannel.localAddress();
    endpoint.shared().outboundMemory().register(writes);
  }

  void onInactive() {
    if (idleTimeout != null) {
      idleTimeout.stop();
    }
    for (Runnable hook : closeHooks) {
      hook.run();
    }
    closeHooks.clear();
    failPending(closedWhy("while the call waited for its response"));
    writes.discardAll();
    writes.report(); // nothing is held any more
    endpoint.shared().outboundMemory().unregister(writes);
    if (heartbeat != null) {
      heartbeat.stop();
    }
  }

  /** The format of frames this side sends on the connection (answers take each request's switch flags). */
  public FrameFormat format() {
    return format;
  }

  /** The largest frame the peer accepts: a larger answer fails alone (SERVER_SERIAL_EXCEPTION). */
  public int peerMaxFrameLength() {
    return settings.peerMaxFrameLength();
  }

  /** The allocator of this connection's Netty channel. */
  public ByteBufAllocator alloc() {
    return nettyChannel.alloc();
  }

  /** The event loop of this connection's Netty channel. */
  EventLoop eventLoop() {
    return nettyChannel.eventLoop();
  }

  // ---------------------------------------------------------------- Connection

  @Override
  public SocketAddress remoteAddress() {
    SocketAddress address = remoteAddress;
    return address != null ? address : nettyChannel.remoteAddress();
  }

  @Override
  public String remoteText() {
    String text = remoteText;
    if (text == null) {
      text = String.valueOf(remoteAddress());
      remoteText = text; // a benign race: every thread computes the same text
    }
    return text;
  }

  @Override
  public SocketAddress localAddress() {
    SocketAddress address = localAddress;
    return address != null ? address : nettyChannel.localAddress();
  }

  @Override
  public boolean isActive() {
    return nettyChannel.isActive();
  }

  @Override
  public boolean isWritable() {
    return nettyChannel.isWritable() && writes.queuedBytes() < settings.maxQueuedBytes();
  }

  @Override
  public int pendingCalls() {
    return calls.size();
  }

  @Override
  public long queuedBytes() {
    return writes.outboundBytes();
  }

  @Override
  public BoltChannel channel() {
    return callChannel;
  }

  @Override
  public void takenOver() {
    http = true;
  }

  @Override
  public void limitOpenRequests(int maxOpen) {
    if (throttle != null) {
      throttle.limit(maxOpen);
    }
  }

  @Override
  public void busyWhile(BooleanSupplier callsInProgress) {
    if (idleTimeout != null) {
      idleTimeout.busyWhile(callsInProgress);
    }
  }

  /** Bytes were read from the peer (IO thread): the connection is not idle. */
  void afterReadComplete() {
    if (idleTimeout != null) {
      idleTimeout.touch();
    }
  }

  @Override
  public void markReceived() {
    if (!received) { // a read, not a volatile write, per frame
      received = true;
    }
  }

  @Override
  public void markWritten() {
    if (idleTimeout != null) {
      idleTimeout.touch();
    }
  }

  /** Whether any frame ever arrived from the peer: it answered, so the connection worked. */
  boolean hasReceived() {
    return received;
  }

  /** Why a call failed on this closed connection {@code when}: as a refusal if it closed before any answer. */
  private String closedWhy(String when) {
    return "connection to " + remoteAddress() + (!closedAsRefused() ? " closed " + when
        : " closed before the peer answered anything on it, " + when + " (a peer that speaks TLS when this side does"
            + " not, or the reverse, or that refuses this side's certificate, closes this way)");
  }

  /**
   * Whether the peer, in effect, refused the connection: it closed without ever answering, within the connect timeout
   * of this side's first frame (or of the connection's start): a TLS mismatch, a client certificate refused after a
   * TLS 1.3 handshake, a server that drops every connection. One quiet for longer was a working connection that closed.
   */
  boolean closedAsRefused() {
    if (received) {
      return false;
    }
    long since = firstWriteNanos != 0 ? firstWriteNanos : activeNanos;
    return ticker().nanoTime() - since < TimeUnit.MILLISECONDS.toNanos(settings.connectTimeoutMillis());
  }

  @Override
  public PeerIdentity peerIdentity() {
    return peerIdentity;
  }

  /** The TLS handshake succeeded: keeps the certificates the peer proved it holds (none if it sent none). */
  public void onHandshake(SSLSession session) {
    try {
      peerIdentity = PeerIdentity.of(session.getPeerCertificates());
    } catch (SSLPeerUnverifiedException e) {
      peerIdentity = null; // a client the server did not ask for a certificate
    }
  }

  @Override
  public void close() {
    closeAsync();
  }

  /** Fails every pending call with CONNECTION_CLOSED at once, then starts closing ({@link #inactiveFuture()}). */
  void closeAsync() {
    failPending("connection to " + remoteAddress() + " was closed by this side");
    Channels.close(nettyChannel);
  }

  private void failPending(String why) {
    SocketAddress remote = remoteAddress();
    calls.closeAll(() -> new BoltException(ResponseStatus.CONNECTION_CLOSED, why, null, null, remote, 0, null));
  }

  /** Completes once the Netty channel went inactive, its pending calls failed and the close event fired. */
  public CompletableFuture<Void> inactiveFuture() {
    return inactive;
  }

  void markInactive() {
    inactive.complete(null);
  }

  /** Completes when the Netty channel is closed (does not close it). */
  ChannelFuture closeFuture() {
    return nettyChannel.closeFuture();
  }

  @Override
  public String toString() {
    return "BoltConnection{" + localAddress() + " -> " + remoteAddress() + ", pending=" + calls.size() + '}';
  }
}
