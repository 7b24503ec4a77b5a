package io.boltgen.gateway;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.ServerContext;
import io.boltgen.runtime.cluster.Registry;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One instance of {@link Work}: in this JVM ({@link #start}) or as a process of its own ({@code WorkNode
 * ETCD_URL PREFIX}, printing {@code READY <port>} once it listens and is registered, with a lease of 2 s).
 */
public final class WorkNode implements Work {

  /** Calls running now, and the most that ever ran at once. */
  final AtomicInteger running = new AtomicInteger();
  final AtomicInteger mostAtOnce = new AtomicInteger();
  final AtomicInteger calls = new AtomicInteger();
  final AtomicInteger plainCalls = new AtomicInteger();

  @Override
  public int hold(int millis) {
    plainCalls.incrementAndGet();
    return run(millis);
  }

  @Override
  public int holdIdempotent(int millis) {
    return run(millis);
  }

  @Override
  public String context(String name) {
    ServerContext call = ServerContext.current();
    return call.headers().get(name) + "|" + call.clientTimeoutMillis();
  }

  private int run(int millis) {
    calls.incrementAndGet();
    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      running.decrementAndGet();
    }
    return ((InetSocketAddress) ServerContext.current().connection().localAddress()).getPort();
  }

  /** A server of {@code node} registered in {@code registry}, stating {@code maxConcurrentCalls} unless 0. */
  static BoltServer start(WorkNode node, Registry registry, int maxConcurrentCalls) {
    BoltServer.Builder builder = BoltServer.builder().bind("127.0.0.1", 0).service(WorkBolt.bind(node))
        .registry(registry).drainTime(Duration.ofSeconds(2)).shutdownTimeout(Duration.ofSeconds(2));
    if (maxConcurrentCalls > 0) {
      builder.maxConcurrentCalls(maxConcurrentCalls);
    }
    return builder.build().start();
  }

  public static void main(String[] args) throws Exception {
    Registry registry = EtcdRegistry.builder().endpoints(args[0]).prefix(args[1]).leaseTtl(Duration.ofSeconds(2))
        .build();
    BoltServer server = start(new WorkNode(), registry, 0);
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
