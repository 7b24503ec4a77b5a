package io.boltgen.runtime.internal;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.internal.wire.FrameDecoder;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one client or server owns at the transport level: its settings, its live connections, the handler
 * of requests that arrive on them, the environment of calls it sends, and its connection events. Builds
 * the channel pipeline: {@code [SslHandler] → [IdleStateHandler] → [port protocol] → FrameDecoder → InboundHandler}
 * (the port protocol's handler on a server that also serves HTTP, see {@link PortProtocol}; the idle
 * handler on a client with heartbeats only; a server's idle timeout is {@link IdleTimeout}, which adds nothing
 * to a write); there is no encoder: frames are encoded by the thread that makes them, or by the IO thread for
 * a server's answers, and queued as buffers. A server counts the connections
 * it accepted: one beyond its limit gets the pipeline of {@link ConnectionRefusal} instead.
 */
public final class Endpoint {

  /** Where a client's channel keeps the address it connects to (TLS verifies its host). */
  public static final AttributeKey<InetSocketAddress> TARGET = AttributeKey.valueOf(Endpoint.class, "target");
  /** The frame format a client connection sends when not the endpoint's ({@code ClientRuntime} sets it). */
  public static final AttributeKey<WireProtocol> PROTOCOL = AttributeKey.valueOf(Endpoint.class, "protocol");

  private final EndpointSettings settings;
  private final SharedResources shared;
  private final CallEnvironment calls;
  private final RequestHandler requests;
  private final ConnectionEvents events;
  private final TlsMaterial tls;
  private final PortProtocol port;
  private final Set<BoltConnection> connections = ConcurrentHashMap.newKeySet();
  // accepted channels not yet closed, refused ones included (they hold a file descriptor too)
  private final AtomicInteger accepted = new AtomicInteger();

  /** An endpoint; it takes no ownership of {@code shared} (the caller releases it). */
  public Endpoint(
      EndpointSettings settings,
      SharedResources shared,
      CallEnvironment calls,
      RequestHandler requests,
      ConnectionEvents events,
      TlsMaterial tls) {
    this(settings, shared, calls, requests, events, tls, null);
  }

  /**
   * An endpoint whose connections may also speak another protocol ({@code port} non-null: a server's, when
   * {@link EndpointSettings#http()}); it takes no ownership of {@code shared}.
   */
  public Endpoint(
      EndpointSettings settings,
      SharedResources shared,
      CallEnvironment calls,
      RequestHandler requests,
      ConnectionEvents events,
      TlsMaterial tls,
      PortProtocol port) {
    this.port = port;
    this.tls = tls;
    this.settings = settings;
    this.shared = shared;
    this.calls = calls;
    this.requests = requests;
    this.events = events;
  }

  /** The settings. */
  EndpointSettings settings() {
    return settings;
  }

  /** The shared threads. */
  SharedResources shared() {
    return shared;
  }

  /** The environment of the calls this endpoint sends. */
  CallEnvironment calls() {
    return calls;
  }

  RequestHandler requests() {
    return requests;
  }

  /** The connection events. */
  ConnectionEvents events() {
    return events;
  }

  /** The connections currently open. */
  public List<Connection> connections() {
    return new ArrayList<>(connections);
  }

  /** The connections currently open, as what they are. */
  public List<BoltConnection> openConnections() {
    return new ArrayList<>(connections);
  }

  /** Socket options for channels of this endpoint. */
  WriteBufferWaterMark waterMark() {
    return new WriteBufferWaterMark(settings.lowWaterMark(), settings.highWaterMark());
  }

  /**
   * Sets up a new channel's pipeline and returns its connection (also stored on the channel); on a server
   * over its connection limit, sets up the refusal instead and returns {@code null}.
   */
  BoltConnection initChannel(Channel channel) {
    if (tls != null) {
      channel.pipeline().addFirst("tls", tls.newHandler(channel.alloc(), channel.attr(TARGET).get()));
    }
    if (!settings.client()) {
      int open = accepted.incrementAndGet();
      channel.closeFuture().addListener(f -> accepted.decrementAndGet());
      if (open > settings.maxConnections()) {
        ConnectionRefusal.install(channel, settings.maxFrameLength(), open - 1, settings.maxConnections(), port);
        return null;
      }
    }
    BoltConnection connection = new BoltConnection(channel, this);
    ChannelPipeline pipeline = channel.pipeline();
    if (settings.client()) {
      if (settings.heartbeatIntervalMillis() > 0) {
        pipeline.addLast("idle", new IdleStateHandler(
            settings.heartbeatIntervalMillis(), 0, 0, TimeUnit.MILLISECONDS));
      }
    }
    FrameDecoder decoder = new FrameDecoder(settings.maxFrameLength(), calls.ticker());
    FrameDeadline deadline = settings.frameTimeoutMillis() <= 0 ? null
        : new FrameDeadline(channel, decoder, calls.timer(), calls.ticker()::nanoTime, settings.frameTimeoutMillis());
    pipeline.addLast("decoder", decoder);
    pipeline.addLast("handler", new InboundHandler(connection, deadline));
    if (port != null) {
      port.join(pipeline);
    }
    return connection;
  }

  /** The protocol this endpoint's port speaks beside Bolt, or {@code null}. */
  PortProtocol port() {
    return port;
  }

  /** The TLS material of this endpoint's connections, or {@code null} without TLS. */
  TlsMaterial tls() {
    return tls;
  }

  /** Connections accepted and not yet closed, refused ones included (0 on a client). */
  int acceptedConnections() {
    return accepted.get();
  }

  /** The handler of a server's listening channel: pauses accepting after a failure (see {@link AcceptErrors}). */
  public ChannelHandler acceptErrors() {
    return new AcceptErrors(accepted::get);
  }

  /** A channel initializer calling {@link #initChannel}. */
  public ChannelInitializer<Channel> initializer() {
    return new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel channel) {
        Endpoint.this.initChannel(channel);
      }
    };
  }

  /** Applies this endpoint's socket options to a bootstrap's child or client channel options. */
  public void applyOptions(OptionSink sink) {
    sink.option(ChannelOption.TCP_NODELAY, true);
    sink.option(ChannelOption.SO_KEEPALIVE, true);
    sink.option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark());
    sink.option(ChannelOption.ALLOCATOR, ALLOCATOR);
  }

  /**
   * The buffer allocator of every connection: Netty's pooled one, unless Netty's own system property
   * {@code io.netty.allocator.type} is set, which then chooses ({@code pooled}, {@code adaptive} or
   * {@code unpooled}; docs/performance.md has what the adaptive one was measured to change). Netty 4.2's own
   * default is adaptive; boltgen keeps pooled unless asked, because that is what its bounds were measured with.
   */
  static final ByteBufAllocator ALLOCATOR = System.getProperty("io.netty.allocator.type") == null
      ? PooledByteBufAllocator.DEFAULT : ByteBufAllocator.DEFAULT;

  /** Where {@link #applyOptions} puts options: {@code Bootstrap::option} or {@code ServerBootstrap::childOption}. */
  @FunctionalInterface
  public interface OptionSink {
    /** Sets one option. */
    <T> void option(ChannelOption<T> option, T value);
  }

  void opened(BoltConnection connection) {
    connections.add(connection);
    events.connected(connection);
  }

  void closed(BoltConnection connection) {
    if (connections.remove(connection)) {
      events.closed(connection);
    }
  }

  /**
   * Closes every connection and waits (up to {@code timeoutMillis}) until each one went inactive: its
   * pending calls failed and its close event fired.
   */
  public void closeConnections(long timeoutMillis) {
    List<java.util.concurrent.CompletableFuture<Void>> closing = new ArrayList<>();
    for (BoltConnection connection : connections) {
      connection.closeAsync();
      closing.add(connection.inactiveFuture());
    }
    try {
      java.util.concurrent.CompletableFuture.allOf(closing.toArray(new java.util.concurrent.CompletableFuture<?>[0]))
          .get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      // a channel that does not close in time is left to the event loop's shutdown
    }
  }
}
