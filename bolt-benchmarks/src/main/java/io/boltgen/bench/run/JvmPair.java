package io.boltgen.bench.run;

import io.boltgen.bench.run.Runner.Failed;
import io.boltgen.bench.scenario.Scenario.Pair;
import io.boltgen.bench.scenario.Scenario.Setup;
import io.boltgen.bench.scenario.Scenario.Slot;
import io.boltgen.bench.system.boltgen.BenchTls;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One system's server JVM and client JVM ({@link ServerMain}, {@link ClientMain}), children of this JVM through
 * bolt-testing's {@link ReadyProcess}: each one's output goes to a log file of its own, its protocol lines
 * ({@link Protocol}) to this side. Closing the pair asks both to stop, and kills what does not.
 */
final class JvmPair implements Runner.Started<Window> {

  /** The benchmarks' one command, whose {@code server} and {@code client} commands the children run. */
  private static final String MAIN = "io.boltgen.bench.Main";

  private final Pair pair;
  private final String stage;
  private final Setup setup;
  private final PrintStream progress;
  private final ReadyProcess server;
  private ReadyProcess client;

  private JvmPair(Pair pair, String stage, Setup setup, PrintStream progress, ReadyProcess server) {
    this.pair = pair;
    this.stage = stage;
    this.setup = setup;
    this.progress = progress;
    this.server = server;
  }

  /** Starts the server, then the client, which warms up; returns once both are ready. */
  static JvmPair start(Pair pair, String stage, Setup setup, PrintStream progress) throws Failed, InterruptedException {
    Path serverLog = setup.logDir().resolve(pair.tag() + "-server.log");
    List<String> serverArgs = new ArrayList<>(pair.serverArgs());
    serverArgs.addAll(List.of("--host", setup.host(), "--port", "0"));
    ReadyProcess server = launch(serverArgs, pair.serverJvmArgs(), setup, serverLog, Duration.ofSeconds(90), pair, stage,
        progress, "server did not start");
    JvmPair started = new JvmPair(pair, stage, setup, progress, server);
    Map<String, String> ready = Protocol.fields(server.readyLine());
    progress.printf("  %s %s: server pid %s on %s:%s (%s)%n", stage, pair.system(), ready.get("pid"), setup.host(),
        ready.get("ports"), pair.description());
    List<String> clientArgs = new ArrayList<>(pair.clientArgs());
    clientArgs.addAll(List.of("--host", setup.host(), "--server", server.readyLine().substring(Protocol.READY.length()).trim()));
    clientArgs.addAll(setup.clientOptions());
    try {
      started.client = launch(clientArgs, pair.clientJvmArgs(), setup, setup.logDir().resolve(pair.tag() + "-client.log"),
          pair.warmUp().plusSeconds(90), pair, stage, progress, "client did not get ready");
    } catch (Failed | InterruptedException e) {
      started.close();
      throw e;
    }
    return started;
  }

  static ReadyProcess launch(List<String> args, List<String> jvmArgs, Setup setup, Path log, Duration ready,
      Pair pair, String stage, PrintStream progress, String failure) throws Failed, InterruptedException {
    List<String> jvm = new ArrayList<>(setup.jvmFlags());
    jvm.add("-Dlogging.path=" + setup.logDir().toAbsolutePath()); // where SOFABolt's own log files go
    // where a boltgen-tls server writes the certificates it generates and its client reads the CA
    jvm.add("-D" + BenchTls.DIR_PROPERTY + "=" + setup.logDir().resolve("tls").toAbsolutePath());
    jvm.addAll(jvmArgs);
    try {
      List<String> command = new ArrayList<>(ReadyProcess.java(jvm, MAIN, args));
      if (pair.java() != null) { // a system measured on another JDK (25) than this one
        command.set(0, pair.java().toString());
        command.add(1, "--enable-native-access=ALL-UNNAMED"); // Netty's epoll library, without JDK 24+'s warning
      }
      return ReadyProcess.launcher(command).log(log).marker(Protocol.PREFIX)
          .stopLine(Protocol.STOP).readyTimeout(ready).start();
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      progress.println("  " + pair.system() + " (" + stage + "): " + failure + ":");
      progress.println("    | " + String.valueOf(e.getMessage()).replace("\n", "\n    | "));
      throw new Failed(pair.system() + " (" + stage + "): " + failure + "; log: " + log);
    }
  }

  /** The server's pid and port, for a person who wants to look at it. */
  @Override
  public String where() {
    return "pid " + server.pid() + " on " + setup.host() + ":" + Protocol.fields(server.readyLine()).get("port");
  }

  /** Asks the client for {@code slot}'s window and waits for it. */
  @Override
  public Window measure(Slot slot) throws Failed, InterruptedException {
    try {
      client.send(Protocol.WINDOW + " " + slot.point().token() + " " + slot.run() + " " + slot.repeat());
    } catch (IOException e) {
      throw fail("client went away: " + e, client);
    }
    Duration timeout = setup.windowTimeout(slot.point());
    while (true) {
      String line = client.nextLine(timeout);
      if (line == null) {
        throw fail("client stopped answering or exited at " + slot.point().id(), client);
      } else if (line.startsWith(Protocol.RESULT)) {
        return Window.parse(line.substring(Protocol.RESULT.length()).trim());
      } else if (line.startsWith(Protocol.FAILED)) {
        throw fail("client failed at " + slot.point().id() + ": " + line.substring(Protocol.FAILED.length()).trim(),
            client);
      }
    }
  }

  /** Prints the child's last lines; the failure, {@code <what>; log: <file>}, without them. */
  Failed fail(String what, ReadyProcess child) {
    String message = pair.system() + " (" + stage + "): " + what + "; log: " + child.logFile();
    String tail = child.tail();
    if (!tail.isBlank()) {
      progress.println("  last lines of " + pair.system() + " (pid " + child.pid() + "):");
      tail.lines().forEach(l -> progress.println("    | " + l));
    }
    return new Failed(message);
  }

  /** Whether the server still runs; if not, a failure. */
  @Override
  public Failed exited() {
    return server.isAlive() ? null : fail("server exited during the run", server);
  }

  @Override
  public void close() {
    for (ReadyProcess child : new ReadyProcess[] {client, server}) {
      try {
        if (child != null) {
          child.close();
        }
      } catch (IOException e) {
        progress.println("  closing " + pair.system() + " (pid " + child.pid() + ") failed: " + e);
      }
    }
  }
}
