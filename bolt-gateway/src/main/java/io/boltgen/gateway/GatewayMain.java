package io.boltgen.gateway;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.registry.zookeeper.ZooKeeperRegistry;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.ServiceDescriptor;
import io.boltgen.runtime.Tls;
import io.boltgen.runtime.cluster.BalancingPolicy;
import io.boltgen.runtime.cluster.Registry;
import io.boltgen.runtime.service.GeneratedService;
import io.boltgen.runtime.support.MessageText;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The gateway as a program: {@code java -jar bolt-gateway.jar --registry etcd://HOST:PORT --service-jar
 * API.jar [options]} (the runnable jar, {@code bolt-gateway/target/bolt-gateway.jar}), or this class on a class
 * path that holds the API jars. It forwards the named services (every generated service found when none is
 * named) to their instances in the registry, over TLS when asked, prints {@code READY <port>} once it listens,
 * and runs until stopped (SIGTERM drains it first). A wrong argument is named on standard error, exit status
 * 2; a gateway that cannot start says so in one line, exit status 1; {@code --help} lists the options.
 */
@Command(name = "java -jar bolt-gateway.jar", sortOptions = false, usageHelpAutoWidth = true,
    description = "Takes HTTP calls (Connect's unary protocol, JSON or protobuf) and forwards each to an instance"
        + " of its service that the registry lists, over Bolt.")
public final class GatewayMain implements Callable<Integer> {

  @Option(names = "--registry", required = true, paramLabel = "URI",
      description = "where the instances register: etcd://HOST:PORT or zookeeper://HOST:PORT")
  String registry;

  @Option(names = "--port", paramLabel = "N", description = "the port to listen on (8080; 0 picks a free one)")
  int port = 8080;

  @Option(names = "--host", paramLabel = "H", description = "the address to listen on (0.0.0.0)")
  String host = "0.0.0.0";

  @Option(names = "--service-jar", paramLabel = "JAR",
      description = "an API jar whose generated services to forward, besides the class path's (repeatable)")
  List<Path> serviceJars = new ArrayList<>();

  @Option(names = "--service", paramLabel = "NAME:VERSION",
      description = "forward only this service (repeatable; unless set, every generated service found)")
  List<String> services = new ArrayList<>();

  @Option(names = "--policy", paramLabel = "P",
      description = "how an instance is picked: least-pending (unless set), round-robin or weighted-random")
  String policy;

  @Option(names = "--forward-header", paramLabel = "NAME",
      description = "an HTTP request header to pass on as a Bolt request header, besides the trace context"
          + " (repeatable)")
  List<String> forwardHeaders = new ArrayList<>();

  @Option(names = "--console", description = "serve the console at / as well")
  boolean console;

  @Option(names = "--tls-cert", paramLabel = "PEM",
      description = "TLS on the gateway's port: its certificate chain (with --tls-key)")
  Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "PEM", description = "the private key of --tls-cert (PKCS#8)")
  Path tlsKey;

  @Option(names = "--tls-client-ca", paramLabel = "PEM",
      description = "require callers' certificates, chained to these CAs (mutual TLS; with --tls-cert)")
  Path tlsClientCa;

  @Option(names = "--instance-ca", paramLabel = "PEM",
      description = "TLS to the instances, trusting these CAs for their certificates")
  Path instanceCa;

  @Option(names = "--instance-cert", paramLabel = "PEM",
      description = "the gateway's certificate chain for instances that require one (with --instance-key)")
  Path instanceCert;

  @Option(names = "--instance-key", paramLabel = "PEM", description = "the private key of --instance-cert")
  Path instanceKey;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "this help")
  boolean help;

  /**
   * Runs the gateway until the process is stopped; exits with status 2 on a wrong argument, 1 when it cannot start
   * (as the example's {@code serve} and {@code gateway} do).
   */
  public static void main(String[] args) {
    int status = commandLine().execute(args);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * The command line: a wrong argument named on standard error with status 2, a gateway that cannot start in one
   * line with status 1, as every boltgen program does.
   */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new GatewayMain());
    cl.setParameterExceptionHandler((e, args) -> {
      e.getCommandLine().getErr().println("error: " + e.getMessage());
      e.getCommandLine().getErr().println("('" + cl.getCommandName() + " --help' lists the options)");
      return 2;
    });
    cl.setExecutionExceptionHandler((e, command, parsed) -> {
      if (!(e instanceof IllegalArgumentException) && !(e instanceof CannotStart)) {
        throw e;
      }
      command.getErr().println("error: " + e.getMessage());
      return e instanceof CannotStart ? 1 : 2;
    });
    return cl;
  }

  @Override
  public Integer call() throws Exception {
    BalancingPolicy balancing = policy == null ? null : policy(policy);
    checkArguments();
    Tls serverTls = tlsCert == null ? null : serverTls();
    Tls instanceTls = instanceCa == null ? null : instanceTls();
    ClassLoader loader = loader();
    Registry opened = openRegistry(registry);
    BoltClient.Builder clientBuilder = BoltClient.builder().nameResolver(opened)
        .connectionsPerAddress(BoltClient.ioThreads()); // each IO thread forwards on its own connection
    if (instanceTls != null) {
      clientBuilder.tls(instanceTls);
    }
    BoltClient client = clientBuilder.build();
    BoltGateway gateway;
    try {
      BoltGateway.Builder builder = BoltGateway.builder().client(client).bind(host, port).console(console);
      if (balancing != null) {
        builder.balancingPolicy(balancing);
      }
      if (serverTls != null) {
        builder.tls(serverTls);
      }
      forwardHeaders.forEach(builder::forwardHeader);
      gateway = forward(builder, services, opened, loader, System.out).build().start();
    } catch (RuntimeException e) {
      client.close();
      opened.close();
      if (e instanceof IllegalArgumentException) {
        throw e;
      }
      // a port in use, an address not this host's, key material TLS refuses: said in one line, exit status 1
      throw new CannotStart("the gateway could not start on " + host + ':' + port + ": " + e.getMessage(), e);
    }
    serveUntilStopped(gateway, System.out, client, opened);
    return 0;
  }

  /** What picocli cannot check: the values' forms and the options that need one another. */
  private void checkArguments() {
    if (!registry.startsWith("etcd://") && !registry.startsWith("zookeeper://")) {
      throw new IllegalArgumentException("--registry: " + MessageText.quote(registry)
          + " is not etcd://HOST:PORT or zookeeper://HOST:PORT");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port: " + port + " is not a port number (0..65535)");
    }
    for (String service : services) {
      if (service.indexOf(':') <= 0 || service.endsWith(":")) {
        throw new IllegalArgumentException("--service: " + MessageText.quote(service) + " is not NAME:VERSION");
      }
    }
    for (Path jar : serviceJars) {
      if (!Files.isReadable(jar)) {
        throw new IllegalArgumentException("--service-jar: cannot read " + jar);
      }
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (tlsClientCa != null && tlsCert == null) {
      throw new IllegalArgumentException("--tls-client-ca needs --tls-cert and --tls-key");
    }
    if ((instanceCert == null) != (instanceKey == null)) {
      throw new IllegalArgumentException("--instance-cert and --instance-key go together");
    }
    if (instanceCert != null && instanceCa == null) {
      throw new IllegalArgumentException("--instance-cert needs --instance-ca (the CAs of the instances)");
    }
  }

  private Tls serverTls() {
    Tls.Builder tls = Tls.builder().keyPair(tlsCert, tlsKey);
    if (tlsClientCa != null) {
      tls.trust(tlsClientCa).clientAuth(Tls.ClientAuth.REQUIRE);
    }
    return tls.build();
  }

  private Tls instanceTls() {
    Tls.Builder tls = Tls.builder().trust(instanceCa);
    if (instanceCert != null) {
      tls.keyPair(instanceCert, instanceKey);
    }
    return tls.build();
  }

  /** This class's loader, or one that also reads the {@code --service-jar} jars. */
  private ClassLoader loader() throws MalformedURLException {
    ClassLoader own = GatewayMain.class.getClassLoader();
    if (serviceJars.isEmpty()) {
      return own;
    }
    List<URL> urls = new ArrayList<>();
    for (Path jar : serviceJars) {
      urls.add(jar.toUri().toURL());
    }
    return new URLClassLoader("service-jars", urls.toArray(URL[]::new), own);
  }

  /**
   * Prints {@code READY <port>} for the started {@code gateway} and waits until the process is stopped; its
   * shutdown hook (SIGTERM) closes the gateway, draining it, then each of {@code alsoClose} in order.
   */
  public static void serveUntilStopped(BoltGateway gateway, PrintStream out, AutoCloseable... alsoClose)
      throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        gateway.close();
        for (AutoCloseable c : alsoClose) {
          try {
            c.close();
          } catch (Exception e) {
            System.err.println("closing " + c + " failed: " + e);
          }
        }
      } finally {
        stopped.countDown();
      }
    }, "gateway-shutdown"));
    out.println("READY " + gateway.port());
    out.flush();
    stopped.await();
  }

  /**
   * Adds to {@code builder} the services {@code keys} name (every generated service {@code loader} finds, when
   * none), each forwarded to its instances in {@code registry}; says so on {@code out}.
   */
  static BoltGateway.Builder forward(BoltGateway.Builder builder, List<String> keys, Registry registry,
      ClassLoader loader, PrintStream out) {
    List<ServiceDescriptor> found = new ArrayList<>();
    if (keys.isEmpty()) {
      for (GeneratedService<?> generated : GeneratedService.all(loader)) {
        found.add(generated.descriptor());
      }
      found.sort(Comparator.comparing(ServiceDescriptor::name));
      if (found.isEmpty()) {
        throw new IllegalArgumentException("no generated service on the class path: add the API jar of the"
            + " services to forward (--service-jar)");
      }
    } else {
      for (String key : keys) {
        found.add(BoltGateway.Builder.find(key, loader));
      }
    }
    for (ServiceDescriptor d : found) {
      String target = registry.scheme() + ":///" + d.name() + ':' + d.version();
      builder.service(d, target);
      out.println("forwarding " + d.name() + ':' + d.version() + " to " + target);
    }
    return builder;
  }

  private static Registry openRegistry(String uri) {
    if (uri.startsWith("etcd://")) {
      return EtcdRegistry.fromUri(uri);
    }
    return ZooKeeperRegistry.fromUri(uri);
  }

  private static BalancingPolicy policy(String text) {
    try {
      return BalancingPolicy.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--policy: " + MessageText.quote(text)
          + " is not least-pending, round-robin or weighted-random", e);
    }
  }

  /** The gateway did not start (a port in use, key material TLS refuses): one line, exit status 1. */
  private static final class CannotStart extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CannotStart(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
