package io.boltgen.bench.load.boltgen;

import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.service.EchoService;
import io.boltgen.bench.service.EchoServiceBolt;
import io.boltgen.bench.service.EchoServiceImpl;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.ServiceDefinition;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * boltgen through the processor's generated {@link EchoService} stub and skeleton ({@link EchoServiceBolt}),
 * every runtime setting at its default. {@code boltgen-io} registers the service with a direct executor, so handlers run
 * on the IO thread; {@code boltgen} leaves them on the server's business executor.
 */
public final class BoltgenSystem implements EchoSystem {

  private final boolean ioThread;

  public BoltgenSystem(boolean ioThread) {
    this.ioThread = ioThread;
  }

  @Override
  public String id() {
    return ioThread ? "boltgen-io" : "boltgen";
  }

  @Override
  public String family() {
    return "boltgen";
  }

  @Override
  public String description() {
    return ioThread
        ? "defaults, but the service registered with a direct executor: handlers on the IO thread"
        : "defaults: handlers on the server's business executor; V2 frames with CRC32";
  }

  @Override
  public EchoServer startServer(String host, int port) {
    ServiceDefinition definition = EchoServiceBolt.bind(new EchoServiceImpl());
    BoltServer.Builder builder = BoltServer.builder().bind(host, port);
    if (ioThread) {
      builder.service(definition, Runnable::run);
    } else {
      builder.service(definition);
    }
    BoltServer server = builder.build().start();
    return EchoServer.of(server.port(), server::close);
  }

  @Override
  public EchoClient connect(String host, int port) throws Exception {
    BoltClient client = BoltClient.builder().build();
    try {
      client.connect(new InetSocketAddress(host, port)).get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      client.close();
      throw e;
    }
    EchoService stub = EchoServiceBolt.newClient(client.channel(host + ":" + port));
    return new EchoClient() {
      @Override
      public int call(byte[] payload) {
        return stub.echo(payload).length;
      }

      @Override
      public void call(byte[] payload, Completion done) {
        CompletableFuture<byte[]> future;
        try {
          future = stub.echoAsync(payload);
        } catch (Throwable t) {
          done.done(-1, t);
          return;
        }
        future.whenComplete((response, error) -> done.done(error == null ? response.length : -1, error));
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }
}
