package io.boltgen.runtime.internal;

import io.boltgen.runtime.RuntimeProvider.ServedService;
import io.boltgen.runtime.ServiceDefinition;
import io.boltgen.runtime.WireProtocol;
import io.boltgen.runtime.call.ServerCalls;
import io.boltgen.runtime.internal.server.RequestDispatcher;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A client or server endpoint on an {@link EmbeddedChannel} whose clock and timer are one {@link FakeTimer}:
 * heartbeats, idle close, frame and call timeouts happen when a test moves the clock, in microseconds of
 * wall time. Close it to release the shared resources it holds.
 */
final class VirtualTime implements AutoCloseable {

  final FakeTimer time = new FakeTimer();
  final SharedResources shared = SharedResources.acquire();
  final CallEnvironment calls;
  final Endpoint endpoint;
  final EmbeddedChannel channel;
  final BoltConnection connection;

  private VirtualTime(EndpointSettings settings, Executor executor, List<ServiceDefinition> services) {
    ServerCalls served = ServerCalls.create(services.stream().map(s -> new ServedService(s, null)).toList(),
        executor, null, time, time.ticker(), List.of());
    this.calls = new CallEnvironment(time, time.ticker(), Runnable::run, settings.client() ? "client" : "server");
    this.endpoint = new Endpoint(settings, shared, calls, new RequestDispatcher(served),
        new ConnectionEvents(List.of(), "test"), null);
    this.channel = EmbeddedChannel.builder().ticker(time.ticker()).register(true).build();
    this.connection = endpoint.initChannel(channel);
    channel.pipeline().fireChannelActive();
  }

  /** A client whose heartbeats go out after {@code intervalMillis} idle and must be acked within {@code timeoutMillis}. */
  static VirtualTime client(long intervalMillis, long timeoutMillis, int maxMisses) {
    return new VirtualTime(settings(true, intervalMillis, timeoutMillis, maxMisses, 0), Runnable::run, List.of());
  }

  /** A server closing connections idle for {@code idleMillis}, serving {@code services} on {@code executor}. */
  static VirtualTime server(long idleMillis, Executor executor, ServiceDefinition... services) {
    return new VirtualTime(settings(false, 0, 0, 0, idleMillis), executor, List.of(services));
  }

  private static EndpointSettings settings(boolean client, long heartbeatInterval, long heartbeatTimeout,
      int maxMisses, long idleMillis) {
    return new EndpointSettings(client, WireProtocol.V2_CRC, 1 << 20, 1 << 20, 32 * 1024, 64 * 1024, 64L << 20,
        1024, 0, heartbeatInterval, heartbeatTimeout, maxMisses, idleMillis, 1000, 10_000, false);
  }

  /** Moves the clock and runs what became due: timer tasks, then the channel's scheduled and queued tasks. */
  void advance(long millis) {
    time.advance(millis, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
    channel.runPendingTasks();
  }

  /** Delivers {@code frame} as one read. */
  void receive(byte[] frame) {
    channel.writeInbound(Unpooled.wrappedBuffer(frame));
    channel.runPendingTasks();
  }

  /** The next frame the endpoint wrote, or {@code null}. */
  byte[] sent() {
    channel.runPendingTasks();
    ByteBuf out = channel.readOutbound();
    if (out == null) {
      return null;
    }
    try {
      return ByteBufUtil.getBytes(out);
    } finally {
      out.release();
    }
  }

  @Override
  public void close() {
    channel.finishAndReleaseAll();
    shared.release();
  }
}
