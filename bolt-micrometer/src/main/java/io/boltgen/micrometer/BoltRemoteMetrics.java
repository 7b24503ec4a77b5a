package io.boltgen.micrometer;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ConnectionListener;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * Gauges per remote, kept up to date by connection events: add it to a builder as a connection listener
 * ({@code BoltClient.builder().connectionListener(BoltRemoteMetrics.client(meters, tags))}). For each remote it
 * has connections to, {@code boltgen.<side>.remote.connections}, {@code .remote.pending.calls} and
 * {@code .remote.queued.bytes}, tagged {@code remote}: a client's remote is the server's {@code host:port}; a
 * server's is the client's host alone (a client's port changes with every connection, and one tag value per
 * connection would grow without bound). The gauges of a remote are removed when its last connection closes.
 */
public final class BoltRemoteMetrics implements ConnectionListener {

  private final MeterRegistry registry;
  private final String prefix;
  private final Tags tags;
  private final boolean hostOnly;
  private final Map<String, Remote> remotes = new ConcurrentHashMap<>();

  private BoltRemoteMetrics(MeterRegistry registry, String side, Iterable<Tag> tags, boolean hostOnly) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.prefix = "boltgen." + side + ".remote.";
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
    this.hostOnly = hostOnly;
  }

  /** Per-server gauges of a client's connections. */
  public static BoltRemoteMetrics client(MeterRegistry registry, Iterable<Tag> tags) {
    return new BoltRemoteMetrics(registry, "client", tags, false);
  }

  /** Per-client-host gauges of a server's connections. */
  public static BoltRemoteMetrics server(MeterRegistry registry, Iterable<Tag> tags) {
    return new BoltRemoteMetrics(registry, "server", tags, true);
  }

  /** The connections of one remote and the gauges reading them. */
  private static final class Remote {
    final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    final List<Meter> meters = new ArrayList<>(3);
  }

  @Override
  public void onConnect(Connection connection) {
    String key = key(connection.remoteAddress());
    remotes.compute(key, (k, remote) -> {
      Remote r = remote;
      if (r == null) {
        r = new Remote();
        Tags remoteTags = tags.and("remote", k);
        r.meters.add(gauge("connections", "connections open to this remote", "connections", remoteTags, r,
            x -> x.connections.size()));
        r.meters.add(gauge("pending.calls", "calls sent to this remote and waiting for their response", "calls",
            remoteTags, r, x -> x.connections.stream().mapToLong(Connection::pendingCalls).sum()));
        r.meters.add(gauge("queued.bytes", "encoded bytes for this remote waiting to reach the socket", "bytes",
            remoteTags, r, x -> x.connections.stream().mapToLong(Connection::queuedBytes).sum()));
      }
      r.connections.add(connection);
      return r;
    });
  }

  @Override
  public void onClose(Connection connection) {
    remotes.computeIfPresent(key(connection.remoteAddress()), (k, r) -> {
      r.connections.remove(connection);
      if (!r.connections.isEmpty()) {
        return r;
      }
      r.meters.forEach(registry::remove);
      return null;
    });
  }

  private Meter gauge(String name, String description, String unit, Tags remoteTags, Remote remote,
      ToDoubleFunction<Remote> value) {
    return Gauge.builder(prefix + name, remote, value).description(description).baseUnit(unit).tags(remoteTags)
        .strongReference(true).register(registry);
  }

  private String key(SocketAddress address) {
    if (address instanceof InetSocketAddress inet) {
      String host = inet.getAddress() != null ? inet.getAddress().getHostAddress() : inet.getHostString();
      return hostOnly ? host : host + ":" + inet.getPort();
    }
    return String.valueOf(address);
  }
}
