package io.boltgen.registry.etcd;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A process that registers one instance and keeps it registered until it is stopped (SIGTERM: it closes its
 * registry, which revokes the lease, and exits), for tests that freeze a registering process (SIGSTOP); run as
 * a {@link io.boltgen.testing.ReadyProcess}. Arguments: endpoints (comma list), service, port, lease TTL in
 * seconds. Prints {@code READY <port>} once registered.
 */
public final class RegisteringMain {

  private RegisteringMain() {}

  public static void main(String[] args) throws InterruptedException {
    EtcdRegistry registry = EtcdRegistry.builder().endpoints(args[0].split(","))
        .leaseTtl(Duration.ofSeconds(Long.parseLong(args[3]))).build();
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      registry.close();
      closed.countDown();
    }, "registering-main-shutdown"));
    int port = Integer.parseInt(args[2]);
    registry.register(args[1], ServiceInstance.of(new InetSocketAddress("127.0.0.1", port)));
    System.out.println("READY " + port);
    System.out.flush();
    closed.await();
  }
}
