package io.boltgen.bench.run;

import io.boltgen.bench.run.Loads.Caller;
import io.boltgen.bench.run.Loads.Load;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.service.ClusterEchoService;
import io.boltgen.bench.service.ClusterEchoServiceBolt;
import io.boltgen.bench.system.EchoSystem;
import io.boltgen.bench.system.EchoSystem.ClientGroup;
import io.boltgen.bench.system.EchoSystem.EchoClient;
import io.boltgen.bench.system.Systems;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client JVM: connects to its server, primes the connection (200 sequential calls), warms the JVM pair up over its
 * warm-up points (each for an equal share of the pass, unmeasured), says {@code READY}, then measures each window
 * the runner asks for on its standard input ({@code WINDOW <point> <run> <repeat>}): a fresh load of that point, its
 * warm-up, then the window ({@link WindowMeter}), answered by {@code RESULT <window>}. A point on one connection uses
 * the client's first connection; a point on several opens that many clients for the point (primed, closed after it);
 * {@code closeFirst} closes the first after the warm-up, so that the server's connections are exactly the point's.
 * The {@code cluster} system calls the servers of its {@code READY} line through one {@link BoltClient}, a
 * {@code static:///} channel per balancing policy.
 *
 * @param server the fields of the server's {@code READY} line
 */
public record ClientMain(String system, String host, Map<String, String> server, List<Point> warmUpPoints,
    Duration warmUpPass, boolean closeFirst, Duration warmup, Duration measure, QuietPolicy quiet) {

  private static final Logger log = LoggerFactory.getLogger(ClientMain.class);
  /** The payload of the calls that prime a connection. */
  private static final byte[] PRIME = new byte[100];

  /** Where the calls of a point go. */
  private interface Target extends AutoCloseable {
    /** The callers of {@code point}, one per connection, calling with {@code payload}. */
    List<Caller> open(Point point, byte[] payload) throws Exception;

    /** Done with the callers of {@code point}. */
    default void release(Point point) {}

    /** Server instances that may answer. */
    default int instances() {
      return 1;
    }

    /** Closes the first connection: points open their own from now on. */
    default void closeFirst() {}

    @Override
    void close();
  }

  /** Runs until told to stop; returns the process exit code. */
  public int run() {
    Protocol.claimStdout();
    int serverPort = Integer.parseInt(server.getOrDefault("port", "0"));
    int stats = Integer.parseInt(server.getOrDefault("stats", "0"));
    try (Target target = system.equals("cluster") ? new Cluster(host, server.get("ports")) : new Echo(system, host,
        serverPort); StatsPort.Client statsClient = stats > 0 ? new StatsPort.Client(host, stats) : null) {
      WindowMeter meter = new WindowMeter(system, Long.parseLong(server.get("pid")),
          system.equals("cluster") ? 0 : serverPort, statsClient, measure, quiet);
      Loads.prime(target.open(warmUpPoints.get(0), PRIME), system);
      for (Point p : warmUpPoints) {
        Load load = Loads.start(target.open(p, Loads.payload(p.payloadBytes(), 7)), p.sync(), p.inflight(),
            target.instances());
        try {
          TimeUnit.NANOSECONDS.sleep(warmUpPass.dividedBy(warmUpPoints.size()).toNanos());
        } finally {
          load.stop();
          target.release(p);
        }
        log.info("{} {}: warm-up pass done ({} calls failed)", system, p.id(), load.errors.sum());
      }
      if (closeFirst) {
        target.closeFirst();
      }
      Protocol.send(Protocol.READY, "system=" + system);
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line; (line = in.readLine()) != null && !line.trim().equals(Protocol.STOP); ) {
        String[] words = line.trim().split(" ");
        if (words[0].equals(Protocol.WINDOW)) {
          Point point = Point.parse(words[1]);
          Window w = new Window(system, point.id(), Integer.parseInt(words[2]), Boolean.parseBoolean(words[3]),
              window(target, meter, point));
          log.info("{} {}: {}", system, point.id(), w.toLine());
          Protocol.send(Protocol.RESULT, w.toLine());
        }
      }
      return 0;
    } catch (Throwable e) {
      log.error("{} client failed", system, e);
      Protocol.send(Protocol.FAILED, String.valueOf(e).replace('\n', ' '));
      return 1;
    }
  }

  private Measured window(Target target, WindowMeter meter, Point point) throws Exception {
    log.info("{} {}: warm-up {} ms, measuring {} ms", system, point.id(), warmup.toMillis(), measure.toMillis());
    try {
      Load load = Loads.start(target.open(point, Loads.payload(point.payloadBytes(), 42)), point.sync(),
          point.inflight(), target.instances());
      try {
        TimeUnit.NANOSECONDS.sleep(warmup.toNanos());
        return meter.measure(load, point.id());
      } finally {
        load.stop();
      }
    } finally {
      target.release(point);
    }
  }

  /** An echo system's server: the first connection, or a group of fresh ones for a point on several. */
  private static final class Echo implements Target {
    private final EchoSystem system;
    private final String host;
    private final int port;
    private EchoClient first;
    private final Map<Point, ClientGroup> groups = new HashMap<>();

    Echo(String id, String host, int port) throws Exception {
      this.system = Systems.client(id);
      this.host = host;
      this.port = port;
      this.first = system.connect(host, port);
    }

    @Override
    public List<Caller> open(Point point, byte[] payload) throws Exception {
      if (point.connections() == 1 && first != null) {
        return List.of(Caller.echo(first, payload));
      }
      long t0 = System.nanoTime();
      ClientGroup group = system.connectMany(host, port, point.connections());
      groups.put(point, group);
      log.info("{}: {} connections up in {} ms", system.id(), point.connections(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      Loads.prime(group.clients().stream().map(c -> Caller.echo(c, PRIME)).toList(), system.id());
      return group.clients().stream().map(c -> Caller.echo(c, payload)).toList();
    }

    @Override
    public void release(Point point) {
      ClientGroup group = groups.remove(point);
      if (group != null) {
        group.close();
      }
    }

    @Override
    public void closeFirst() {
      first.close();
      first = null;
    }

    @Override
    public void close() {
      groups.values().forEach(ClientGroup::close);
      if (first != null) {
        first.close();
      }
    }
  }

  /**
   * The cluster's servers, through one {@link BoltClient} at its defaults and one {@code static:///} channel per
   * policy (one cluster target: the policies share its instances and connections). A reply names the instance that
   * answered.
   */
  private static final class Cluster implements Target {
    private final BoltClient client = BoltClient.builder().build();
    private final String target;
    private final int instances;
    private final Map<String, ClusterEchoService> stubs = new HashMap<>();

    Cluster(String host, String ports) {
      this.target = "static:///" + String.join(",", List.of(ports.split(",")).stream().map(p -> host + ":" + p).toList());
      this.instances = ports.split(",").length;
    }

    @Override
    public List<Caller> open(Point point, byte[] payload) {
      ClusterEchoService stub = stubs.computeIfAbsent(point.policy(),
          p -> ClusterEchoServiceBolt.newClient(client.channel(target, BalancingPolicy.valueOf(p))));
      return List.of(new Caller() {
        @Override
        public String call() throws Exception {
          return Loads.wrongLength(stub.echo(payload).get(3, TimeUnit.SECONDS).payload().length, payload);
        }

        @Override
        @SuppressWarnings("FutureReturnValueIgnored") // done takes the outcome, failures included, and does not throw
        public void call(Loads.Outcome done) {
          stub.echo(payload).whenComplete((reply, error) -> done.done(reply == null ? -1 : reply.instance(),
              reply == null || reply.payload() == null ? "no payload" : Loads.wrongLength(reply.payload().length,
                  payload), error));
        }
      });
    }

    @Override
    public int instances() {
      return instances;
    }

    @Override
    public void close() {
      client.close();
    }
  }
}
