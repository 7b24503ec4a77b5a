package io.boltgen.bench.system.boltgen;

import io.boltgen.bench.system.EchoSystem;
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
import io.boltgen.runtime.Tls;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * boltgen through the processor's generated {@link EchoService} stub and skeleton ({@link EchoServiceBolt}),
 * every runtime setting at its default. {@code boltgen-io} registers the service with a direct executor, so handlers run
 * on the IO thread; {@code boltgen} leaves them on the server's business executor; {@code boltgen-intercepted}
 * is {@code boltgen} with one client and one server interceptor that do nothing but return a listener (the
 * cost of the interceptor path itself); {@code boltgen-micrometer} observes every call on both sides with
 * bolt-micrometer into a {@code SimpleMeterRegistry} (timers per service, method and status).
 * {@code boltgen-tls} and {@code boltgen-tls-openssl} are {@code boltgen} with TLS 1.3 on both sides, on the
 * JDK's provider and on OpenSSL (BoringSSL through netty-tcnative): the server's certificate is generated when it
 * starts, the client trusts its CA and checks its host name, no client certificate ({@link BenchTls}).
 * {@code boltgen-http} is {@code boltgen} with {@code http(true)}: the server of the {@code http} command, loaded by
 * wrk over HTTP and by this Bolt client on the same port; not in the load matrix's default systems.
 * {@code boltgen-jdk25} is {@code boltgen} with both JVMs on JDK 25, and {@code boltgen-virtual} that again with the
 * server's handlers on virtual threads ({@code virtualThreads()}, within the pool's bounds): the pair that tells what
 * virtual threads cost or gain on one JDK. Their JDK is {@value #JDK25_PROPERTY}'s, else {@value #JDK25_HOME}.
 */
public final class BoltgenSystem implements EchoSystem {

  /** The configurations measured. */
  public enum Mode {
    DEFAULT("boltgen"),
    IO_THREAD("boltgen-io"),
    INTERCEPTED("boltgen-intercepted"),
    MICROMETER("boltgen-micrometer"),
    TLS_JDK("boltgen-tls"),
    TLS_OPENSSL("boltgen-tls-openssl"),
    HTTP("boltgen-http"),
    JDK25("boltgen-jdk25"),
    VIRTUAL("boltgen-virtual");

    final String id;

    Mode(String id) {
      this.id = id;
    }
  }

  /** The system property that names the JDK 25 of {@code boltgen-jdk25} and {@code boltgen-virtual}. */
  public static final String JDK25_PROPERTY = "boltgen.jdk25.home";

  /** Where that JDK is unless the property says otherwise: Temurin 25's Debian directory. */
  public static final String JDK25_HOME = "/usr/lib/jvm/temurin-25-jdk-amd64";

  private final Mode mode;
  private final boolean ioThread;
  /** The TLS provider of both sides, or null without TLS. */
  private final Tls.Provider tls;

  public BoltgenSystem(Mode mode) {
    this.mode = mode;
    this.ioThread = mode == Mode.IO_THREAD;
    this.tls = mode == Mode.TLS_JDK ? Tls.Provider.JDK : mode == Mode.TLS_OPENSSL ? Tls.Provider.OPENSSL : null;
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
      case TLS_JDK:
        return "defaults, plus TLS 1.3 on both sides, JDK provider; EC P-256 server certificate, no client certificate";
      case TLS_OPENSSL:
        return "defaults, plus TLS 1.3 on both sides, OpenSSL (BoringSSL) provider; EC P-256 server certificate,"
            + " no client certificate";
      case JDK25:
        return "defaults, both JVMs on JDK 25";
      case VIRTUAL:
        return "defaults, both JVMs on JDK 25, the server's handlers on virtual threads (virtualThreads(): at most 400"
            + " at once, 600 queued, as the pool)";
      case HTTP:
        return "defaults, plus http(true): the server also answers HTTP/1.1 and HTTP/2 (Connect unary, JSON or"
            + " protobuf) on its Bolt port";
      default:
        return "defaults: handlers on the server's business executor; V2 frames with CRC32";
    }
  }

  @Override
  public String unavailable() {
    if (java() != null && !Files.isExecutable(java())) {
      return "no JDK 25 at " + java() + " (set -D" + JDK25_PROPERTY + "=<a JDK 25's directory>)";
    }
    return tls == null ? null : BenchTls.unavailable(tls);
  }

  @Override
  public Path java() {
    return mode == Mode.JDK25 || mode == Mode.VIRTUAL
        ? Path.of(System.getProperty(JDK25_PROPERTY, JDK25_HOME), "bin", "java") : null;
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
    if (tls != null) {
      builder.tls(BenchTls.server(id(), tls)); // certificates generated now, before the server is ready
    }
    if (mode == Mode.INTERCEPTED) {
      builder.serverInterceptor(call -> (status, error, nanos) -> { });
    } else if (mode == Mode.MICROMETER) {
      builder.serverInterceptor(BoltObservations.serverInterceptor(observations()));
    }
    if (mode == Mode.HTTP) {
      builder.http(true);
    } else if (mode == Mode.VIRTUAL) {
      builder.virtualThreads();
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
    return connect(host, port, null);
  }

  /**
   * {@code n} {@link BoltClient}s, one connection each (the default of one connection per address), sharing one
   * callback executor made exactly as each client would make its own (a pool of max(4, 2 × cores) daemon threads,
   * unbounded queue); their IO threads and timer are shared by the runtime within a JVM anyway.
   */
  @Override
  public ClientGroup connectMany(String host, int port, int n) throws Exception {
    int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    ThreadPoolExecutor callbacks = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), new DefaultThreadFactory("boltgen-callback", true));
    callbacks.allowCoreThreadTimeOut(true);
    List<EchoClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        clients.add(connect(host, port, callbacks));
      }
    } catch (Exception | Error e) {
      new ClientGroup(clients, callbacks::shutdownNow).close();
      throw e;
    }
    return new ClientGroup(clients, callbacks::shutdown);
  }

  /** A client whose callbacks run on {@code callbacks}, or on an executor of its own when null. */
  private EchoClient connect(String host, int port, Executor callbacks) throws Exception {
    BoltClient.Builder clientBuilder = BoltClient.builder();
    if (callbacks != null) {
      clientBuilder.callbackExecutor(callbacks);
    }
    if (mode == Mode.INTERCEPTED) {
      clientBuilder.clientInterceptor(call -> (status, error, nanos) -> { });
    } else if (mode == Mode.MICROMETER) {
      clientBuilder.clientInterceptor(BoltObservations.clientInterceptor(observations()));
    }
    if (tls != null) {
      clientBuilder.tls(BenchTls.client(id(), tls));
    }
    BoltClient client = clientBuilder.build();
    try {
      InetSocketAddress address = new InetSocketAddress(host, port);
      // with TLS the connection is up only once its handshake succeeded: it never falls into a window
      client.connect(address).get(10, TimeUnit.SECONDS);
      if (tls != null) {
        BenchTls.checkHandshakeDone(id(), client, address);
      }
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
      @SuppressWarnings("FutureReturnValueIgnored") // done takes the outcome, failures included, and does not throw
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
