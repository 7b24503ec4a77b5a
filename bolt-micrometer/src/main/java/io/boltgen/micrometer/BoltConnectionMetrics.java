package io.boltgen.micrometer;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Connection;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Gauges of one client's or server's connections, read from {@code connections()} when the registry
 * publishes (nothing is counted on the call path):
 *
 * <ul>
 *   <li>{@code boltgen.<side>.connections}: connections open;</li>
 *   <li>{@code boltgen.<side>.connections.unwritable}: open connections that do not take calls without delay
 *       now ({@link Connection#isWritable()}: write buffer above its high water mark, or write queue at its
 *       byte budget);</li>
 *   <li>{@code boltgen.<side>.pending.calls}: calls sent over these connections still waiting for their
 *       response ({@link Connection#pendingCalls()}; on a server, the calls it sent back to its clients).</li>
 *   <li>{@code boltgen.server.calls.cancelled} (servers only): a counter of the calls cancelled because their
 *       caller went away ({@link BoltServer#cancelledCalls()}), those dropped from the queue before any
 *       interceptor saw them included.</li>
 * </ul>
 *
 * <p>{@code <side>} is {@code client} or {@code server}; every gauge carries the tags given here (to tell
 * several clients or servers apart). The gauges hold the client or server weakly: once it is collected they
 * report NaN. Calls being served are not here: the {@code boltgen.server.calls.active} long-task timer of
 * {@link BoltObservations#serverInterceptor} counts them.
 */
public final class BoltConnectionMetrics implements MeterBinder {

  private final Object endpoint;
  private final Function<Object, List<Connection>> connections;
  private final String side;
  private final Tags tags;
  // a server's cancelled calls; null for a client
  private final ToDoubleFunction<Object> cancelled;

  private <T> BoltConnectionMetrics(T endpoint, Function<T, List<Connection>> connections, String side,
      Iterable<Tag> tags, ToDoubleFunction<T> cancelled) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    @SuppressWarnings("unchecked") // only ever applied to endpoint, a T
    Function<Object, List<Connection>> any = (Function<Object, List<Connection>>) connections;
    this.connections = any;
    this.side = side;
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    @SuppressWarnings("unchecked") // only ever applied to endpoint, a T
    ToDoubleFunction<Object> anyCancelled = (ToDoubleFunction<Object>) cancelled;
    this.cancelled = anyCancelled;
  }

  /** The gauges of {@code client}'s connections, with {@code tags}. */
  public static BoltConnectionMetrics of(BoltClient client, Iterable<Tag> tags) {
    return new BoltConnectionMetrics(client, BoltClient::connections, "client", tags, null);
  }

  /** The gauges of {@code server}'s connections, with {@code tags}. */
  public static BoltConnectionMetrics of(BoltServer server, Iterable<Tag> tags) {
    return new BoltConnectionMetrics(server, BoltServer::connections, "server", tags,
        BoltServer::cancelledCalls);
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    String prefix = "boltgen." + side + '.';
    Gauge.builder(prefix + "connections", endpoint, e -> connections.apply(e).size())
        .description("connections open")
        .baseUnit("connections")
        .tags(tags)
        .register(registry);
    Gauge.builder(prefix + "connections.unwritable", endpoint,
            e -> connections.apply(e).stream().filter(c -> c.isActive() && !c.isWritable()).count())
        .description("open connections whose write buffer or write queue is full")
        .baseUnit("connections")
        .tags(tags)
        .register(registry);
    Gauge.builder(prefix + "queued.bytes", endpoint,
            e -> connections.apply(e).stream().mapToLong(Connection::queuedBytes).sum())
        .description("encoded bytes waiting to reach the socket (write queues and channel buffers)")
        .baseUnit("bytes")
        .tags(tags)
        .register(registry);
    Gauge.builder(prefix + "pending.calls", endpoint,
            e -> connections.apply(e).stream().mapToLong(Connection::pendingCalls).sum())
        .description("calls sent and waiting for their response")
        .baseUnit("calls")
        .tags(tags)
        .register(registry);
    if (cancelled != null) {
      FunctionCounter.builder(prefix + "calls.cancelled", endpoint, cancelled)
          .description("calls cancelled because their caller went away before the answer")
          .baseUnit("calls")
          .tags(tags)
          .register(registry);
    }
  }
}
