package io.boltgen.cluster.it;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.cluster.Registry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One instance of the cluster tests' {@link Counter}, run as its own process: {@code ClusterNode REGISTRY
 * TTL_MILLIS WEIGHT} where REGISTRY is {@code etcd://host:port[,host:port]} or {@code zookeeper://host:port}.
 * Prints {@code READY <port>} once it listens and is registered; on SIGTERM it closes gracefully
 * (deregister, keep serving while clients move away, drain) and exits.
 */
public final class ClusterNode {

  private ClusterNode() {}

  /** A {@link Counter} that knows its port. */
  static final class CounterService implements Counter {
    final AtomicLong count = new AtomicLong();

    @Override
    public long read() {
      return count.get();
    }

    @Override
    public long add(long delta) {
      return count.addAndGet(delta);
    }

    @Override
    public int port() {
      return ((InetSocketAddress) ServerContext.current().connection().localAddress()).getPort();
    }
  }

  /** The registry {@code uri} names, with keep-alives for a lease or session of {@code ttl}. */
  static Registry registry(String uri, Duration ttl) {
    if (uri.startsWith("etcd://")) {
      String[] endpoints = Arrays.stream(uri.substring("etcd://".length()).split(","))
          .map(endpoint -> "http://" + endpoint).toArray(String[]::new);
      return EtcdRegistry.builder().endpoints(endpoints).leaseTtl(ttl).build();
    }
    return ZooKeeperRegistry.builder().connectString(uri.substring("zookeeper://".length())).sessionTimeout(ttl)
        .build();
  }

  public static void main(String[] args) throws Exception {
    Registry registry = registry(args[0], Duration.ofMillis(Long.parseLong(args[1])));
    CounterService counter = new CounterService();
    BoltServer server = BoltServer.builder()
        .bind("127.0.0.1", 0)
        .service(CounterBolt.bind(counter))
        .registry(registry)
        .instance(Integer.parseInt(args[2]), "", Map.of())
        .drainTime(Duration.ofSeconds(10))
        .build();
    server.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      registry.close();
      stopped.countDown();
    }, "node-shutdown"));
    System.out.println("READY " + server.port());
    System.out.flush();
    stopped.await();
  }
}
