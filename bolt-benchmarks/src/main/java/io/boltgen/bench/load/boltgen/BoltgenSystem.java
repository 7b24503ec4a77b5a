package io.boltgen.bench.load.boltgen;

import io.boltgen.bench.load.EchoSystem;
import io.boltgen.micrometer.BoltObservations;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
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
 * on the IO thread; {@code boltgen} leaves them on the server's business executor; {@code boltgen-intercepted}
 * is {@code boltgen} with one client and one server interceptor that do nothing but return a listener (the
 * cost of the interceptor path itself); {@code boltgen-micrometer} observes every call on both sides with
 * bolt-micrometer into a {@code SimpleMeterRegistry} (timers per service, method and status).
 */
public final class BoltgenSystem implements EchoSystem {

  /** The configurations measured. */
  public enum Mode {
    DEFAULT("boltgen"),
    IO_THREAD("boltgen-io"),
    INTERCEPTED("boltgen-intercepted"),
    MICROMETER("boltgen-micrometer");

    final String id;

    Mode(String id) {
      this.id = id;
    }
  }

  private final Mode mode;
  private final boolean ioThread;

  public BoltgenSystem(Mode mode) {
    this.mode = mode;
    this.ioThread = mode == Mode.IO_THREAD;
  }

  @Override
  public String id() {
    return mode.id;
  }

  @Override
  public String family() {
    return "boltgen";
  }

  @Override
  public String description() {
    switch (mode) {
      case IO_THREAD:
        return "defaults, but the service registered with a direct executor: handlers on the IO thread";
      case INTERCEPTED:
        return "defaults, plus a client and a server interceptor that only return a listener";
      case MICROMETER:
        return "defaults, plus bolt-micrometer's observations on both sides (timers in a SimpleMeterRegistry)";
      default:
        return "defaults: handlers on the server's business executor; V2 frames with CRC32";
    }
  }

  /** An observation registry recording timers into a meter registry of its own, as an application's would. */
  private static ObservationRegistry observations() {
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
    return registry;
  }

  @Override
  public EchoServer startServer(String host, int port) {
    ServiceDefinition definition = EchoServiceBolt.bind(new EchoServiceImpl());
    BoltServer.Builder builder = BoltServer.builder().bind(host, port);
    if (mode == Mode.INTERCEPTED) {
      builder.serverInterceptor(call -> (status, error, nanos) -> { });
    } else if (mode == Mode.MICROMETER) {
      builder.serverInterceptor(BoltObservations.serverInterceptor(observations()));
    }
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
    BoltClient.Builder clientBuilder = BoltClient.builder();
    if (mode == Mode.INTERCEPTED) {
      clientBuilder.clientInterceptor(call -> (status, error, nanos) -> { });
    } else if (mode == Mode.MICROMETER) {
      clientBuilder.clientInterceptor(BoltObservations.clientInterceptor(observations()));
    }
    BoltClient client = clientBuilder.build();
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
