package io.boltgen.registry.etcd;

import io.boltgen.runtime.cluster.ServiceInstance;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A process that registers one instance and keeps it registered until its standard input ends, for tests
 * that freeze a registering process (SIGSTOP). Arguments: endpoints (comma list), service, port, lease TTL
 * in seconds. Prints {@code REGISTERED} once registered and {@code CLOSED} after closing the registry.
 */
public final class RegisteringMain {

  private RegisteringMain() {}

  public static void main(String[] args) throws IOException {
    try (EtcdRegistry registry = EtcdRegistry.builder().endpoints(args[0].split(","))
        .leaseTtl(Duration.ofSeconds(Long.parseLong(args[3]))).build()) {
      registry.register(args[1], ServiceInstance.of(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[2]))));
      System.out.println("REGISTERED");
      System.out.flush();
      while (System.in.read() >= 0) {
        // wait for the end of input
      }
    }
    System.out.println("CLOSED");
    System.out.flush();
  }
}
