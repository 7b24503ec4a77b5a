package com.example.sofa.peer;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real SOFARPC 5.13.2 provider or consumer of the interop services (EchoService on protobuf, GreetService on
 * hessian2), for bolt-sofarpc-it's tests, or a SOFARPC consumer load for bolt-benchmarks' sofarpc command. Needs
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} on Java 17, and java.math and java.util opened likewise for
 * the checks that carry a BigInteger or a UUID (sofa-hessian writes those by reflection).
 *
 * <pre>
 * provider --port N [--id ID] [--registry zookeeper://host:port] [--weight W]
 *     prints "READY N" once serving; stops at the end of standard input or on SIGTERM
 * consumer --serializer protobuf|hessian2 (--direct host:port | --registry zookeeper://host:port)
 *          [--calls NAME[,NAME...]] [--timeout-ms T]
 *     prints "CHECK name PASS|FAIL detail" per check, then "DONE passes fails"; exit code 0 iff no FAIL
 * zookeeper --port N --data DIR
 *     a ZooKeeper 3.5.7 server (SOFARPC's own version); prints "READY N" once it accepts connections; stops at
 *     the end of standard input or on SIGTERM
 * bench --direct host:port
 *     prints "READY"; then per line "protobuf|hessian2 sync|async CONCURRENCY WARMUP_MS MEASURE_MS" of standard
 *     input "MEASURING" and "RESULT calls=N errors=N seconds=S p50us=X p99us=X cpuns=N error=TEXT" (PeerBench)
 * </pre>
 */
public final class PeerMain {

  /** Standard output, UTF-8 whatever the platform's default, for the protocol lines. */
  static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  private PeerMain() {}

  public static void main(String[] args) throws Exception {
    // SOFA's logs (and its tracer's) go under ${logging.path}, ~/logs unless set: keep them out of the home
    if (System.getProperty("logging.path") == null) {
      System.setProperty("logging.path", Path.of(System.getProperty("java.io.tmpdir"), "sofa-peer-logs").toString());
    }
    if (args.length == 0) {
      usage("no mode");
    }
    Map<String, String> options = options(args);
    int exit;
    switch (args[0]) {
      case "provider" -> {
        PeerProvider.run(options);
        exit = 0;
      }
      case "consumer" -> exit = PeerConsumer.run(options);
      case "bench" -> exit = PeerBench.run(options);
      case "zookeeper" -> {
        PeerZooKeeper.run(options);
        exit = 0;
      }
      default -> throw usage("unknown mode " + args[0]);
    }
    OUT.flush();
    // SOFARPC leaves non-daemon threads behind (its timers, bolt's scanners): end the JVM ourselves
    System.exit(exit);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw usage("expected --name value at " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  static List<String> list(String csv) {
    List<String> out = new ArrayList<>();
    for (String s : csv.split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  static IllegalArgumentException usage(String why) {
    System.err.println("sofa-peer: " + why + "\nusage:\n"
        + "  provider --port N [--id ID] [--registry zookeeper://host:port] [--weight W]\n"
        + "  consumer --serializer protobuf|hessian2 (--direct host:port | --registry zookeeper://host:port)"
        + " [--calls NAME[,NAME...]] [--timeout-ms T]\n"
        + "  bench --direct host:port   (then lines: protobuf|hessian2 sync|async N WARMUP_MS MEASURE_MS)\n"
        + "  zookeeper --port N --data DIR");
    System.exit(2);
    return new IllegalArgumentException(why);
  }
}
