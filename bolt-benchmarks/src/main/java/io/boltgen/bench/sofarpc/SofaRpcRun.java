package io.boltgen.bench.sofarpc;

import static io.boltgen.bench.sofarpc.SofaRpcBench.BOLTGEN;
import static io.boltgen.bench.sofarpc.SofaRpcBench.SOFARPC;
import static io.boltgen.bench.sofarpc.SofaRpcBench.estimate;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.run.Loads;
import io.boltgen.bench.run.CpuWindow;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.run.Session;
import io.boltgen.bench.scenario.Point;
import io.boltgen.bench.scenario.Scenario;
import io.boltgen.bench.scenario.Scenario.Slot;
import io.boltgen.bench.sofarpc.SofaRpcBench.Case;
import io.boltgen.bench.sofarpc.SofaRpcBench.Result;
import io.boltgen.bench.sofarpc.SofaRpcBench.Settings;
import io.boltgen.bench.sofarpc.SofaRpcBench.Window;
import io.boltgen.runtime.BoltClient;
import io.boltgen.testing.ReadyProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the {@code sofarpc} command's {@link SofaRpcBench.Settings}: a real SOFARPC provider and consumer in JVMs of
 * their own, and the boltgen client in this one, window by window, then the report ({@link SofaRpcReport}).
 */
public final class SofaRpcRun {

  private SofaRpcRun() {}

  /** Runs {@code s}, printing progress and the tables to {@code out}, writing the report if {@code s.out()}. */
  public static Result execute(Settings s, PrintStream out) throws Exception {
    Session session = Session.begin("boltgen against SOFARPC 5.13.2", "; about " + Fmt.duration(estimate(s))
        + " unless windows are measured again; logs: " + s.logDir(), s.caveats(), out);
    Files.createDirectories(s.logDir());
    Runner.Outcome<Window> outcome = Runner.run(new Rounds(s), (peers, stage) -> Sides.start(s, out), out,
        SofaRpcReport::describe);
    outcome.failures().forEach(session::recordFailure);
    List<Window> windows = outcome.windows();
    for (Window w : windows) {
      if (w.errors() > 0 || w.calls() == 0) {
        session.recordFailure(String.format(Locale.ROOT, "%s, %s, round %d: %d calls, %d errors %s", w.side(),
            w.c().id(), w.round(), w.calls(), w.errors(), w.firstError()));
      }
    }
    Result result = new Result(windows, session.failures(), session.caveats());
    session.summary("\n" + SofaRpcReport.console(s, result));
    if (s.out() != null) {
      session.write(s.out(), SofaRpcReport.markdown(s, result, session.machine(), MachineInfo.loadAverage(),
          session.started(), session.took()));
    } else {
      out.println("no report written (not a full run; --out FILE writes one)");
    }
    session.finish();
    return result;
  }

  /** The one part: SOFARPC's provider and consumer and the boltgen client, on which both sides' slots are measured. */
  record Peers() implements Scenario.Part {
    @Override
    public String system() {
      return "sofarpc-peers";
    }

    @Override
    public boolean measures(String side) {
      return side.equals(BOLTGEN) || side.equals(SOFARPC);
    }
  }

  /**
   * In each round every case on both sides, one after the other, the order of the cases rotating and the side going
   * first alternating from round to round; a slot's system is its side, its point the case.
   */
  record Rounds(Settings s) implements Scenario<Peers> {
    @Override
    public List<Stage<Peers>> stages() {
      List<Slot> slots = new ArrayList<>();
      for (int round = 1; round <= s.rounds(); round++) {
        for (Case c : Scenario.rotation(s.cases(), round)) {
          for (String side : round % 2 == 1 ? List.of(BOLTGEN, SOFARPC) : List.of(SOFARPC, BOLTGEN)) {
            slots.add(new Slot(side, new Point(c.id(), c.sync(), 1, c.concurrency(), 100, ""), round, false));
          }
        }
      }
      return List.of(new Stage<>("sofarpc", 1, List.of(new Peers()), slots));
    }

    @Override
    public String header() {
      return s.rounds() + " round(s) of " + s.cases().size() + " cases on both sides";
    }

    @Override
    public Duration estimate() {
      return SofaRpcBench.estimate(s);
    }
  }

  /** The two sides' windows: the boltgen client in this JVM and the SOFARPC consumer's JVM. */
  private static final class Sides implements Runner.Started<Window> {
    final Settings s;
    final PrintStream out;
    final ReadyProcess provider;
    final ReadyProcess consumer;
    final BoltClient client;
    final Map<String, Loads.Caller> calls = new LinkedHashMap<>();

    private Sides(Settings s, PrintStream out, ReadyProcess provider, ReadyProcess consumer, BoltClient client) {
      this.s = s;
      this.out = out;
      this.provider = provider;
      this.consumer = consumer;
      this.client = client;
      String address = "127.0.0.1:" + provider.port();
      calls.put("protobuf", Workload.echo(client, address));
      calls.put("hessian2", Workload.greet(client, address));
    }

    /** Starts the provider, then the consumer, which calls it; the boltgen client calls it from this JVM. */
    static Sides start(Settings s, PrintStream out) throws Runner.Failed, InterruptedException {
      ReadyProcess provider = null;
      ReadyProcess consumer = null;
      BoltClient client = null;
      try {
        provider = SofaPeer.provider(s.peerClasspath(), s.jvmFlags(), s.logDir());
        consumer = SofaPeer.consumer(s.peerClasspath(), s.jvmFlags(), s.logDir(), "127.0.0.1:" + provider.port());
        client = BoltClient.builder().build();
        Sides sides = new Sides(s, out, provider, consumer, client);
        out.printf("  SOFARPC provider: pid %d at 127.0.0.1:%d; SOFARPC consumer: pid %d; boltgen client: this JVM"
            + " (pid %d)%n", provider.pid(), provider.port(), consumer.pid(), ProcessHandle.current().pid());
        return sides;
      } catch (Exception e) {
        if (client != null) {
          client.close();
        }
        close(consumer, out);
        close(provider, out);
        if (e instanceof InterruptedException interrupted) {
          throw interrupted;
        }
        throw new Runner.Failed("the SOFARPC peers did not start: " + e.getMessage() + "; logs in " + s.logDir());
      }
    }

    /** A window of either side; one that fails is told and the next is measured. */
    @Override
    public Window measure(Slot slot) throws Runner.Failed, InterruptedException {
      Case c = s.cases().stream().filter(k -> k.id().equals(slot.point().id())).findFirst().orElseThrow();
      try {
        return s.quiet().quietest(() -> slot.system().equals(BOLTGEN) ? boltgen(c, slot.run())
            : sofarpc(c, slot.run()), Window::otherCpuPercent, Window::attempts, w -> w.side() + " " + c.id(),
            line -> out.println("  " + line));
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        throw Runner.Failed.window(slot.system() + ", " + c.id() + ", round " + slot.run() + ": " + e);
      }
    }

    @Override
    public Runner.Failed exited() {
      return provider.isAlive() && consumer.isAlive() ? null
          : new Runner.Failed("a SOFARPC peer exited during the run; logs in " + s.logDir());
    }

    @Override
    public void close() {
      try {
        client.close();
      } finally {
        close(consumer, out);
        close(provider, out);
      }
    }

    private static void close(ReadyProcess p, PrintStream out) {
      try {
        if (p != null) {
          p.close();
        }
      } catch (IOException e) {
        out.println("  closing pid " + p.pid() + " failed: " + e);
      }
    }

    Window boltgen(Case c, int round) throws Exception {
      Loads.Load load = Loads.start(List.of(calls.get(c.serializer())), c.sync(), c.concurrency(), 1);
      Loads.Taken w;
      try {
        Thread.sleep(s.warmup().toMillis()); // the warm-up: the load runs meanwhile
        w = load.window(s.measure(), List.of(provider.pid(), consumer.pid()), ProcessHandle.current().pid());
      } catch (InterruptedException | RuntimeException e) {
        load.stop();
        throw e;
      }
      load.stopOrFail("boltgen, " + c.id() + ", round " + round);
      return new Window(c, BOLTGEN, round, w.calls(), w.errors(), w.firstError(), w.seconds(), w.us(50), w.us(99),
          w.cost().subjectUs().get(0), w.cost().otherPercent(), 1, false);
    }

    Window sofarpc(Case c, int round) throws Exception {
      consumer.send(c.serializer() + " " + (c.sync() ? "sync" : "async") + " " + c.concurrency() + " "
          + s.warmup().toMillis() + " " + s.measure().toMillis());
      Duration bound = s.warmup().plus(s.measure()).plusSeconds(60);
      next(consumer, "MEASURING", bound);
      CpuWindow window = CpuWindow.start(List.of(provider.pid(), consumer.pid()));
      String result = next(consumer, "RESULT ", bound);
      double other = window.end(0).otherPercent();
      Map<String, String> f = Workload.fields(result);
      long n = Long.parseLong(f.get("calls"));
      long cpu = Long.parseLong(f.get("cpuns"));
      return new Window(c, SOFARPC, round, n, Long.parseLong(f.get("errors")), f.getOrDefault("error", ""),
          Double.parseDouble(f.get("seconds")), Double.parseDouble(f.get("p50us")), Double.parseDouble(f.get("p99us")),
          cpu < 0 || n == 0 ? Double.NaN : cpu / 1000.0 / n, other, 1, false);
    }

    /** The consumer's next line starting with {@code prefix} (its logs come in between), within {@code bound}. */
    private static String next(ReadyProcess p, String prefix, Duration bound) throws InterruptedException {
      long deadline = System.nanoTime() + bound.toNanos();
      while (true) {
        String line = p.nextLine(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        if (line == null) {
          throw new IllegalStateException("the SOFARPC consumer printed no " + prefix.trim() + " line (exited, or"
              + " silent for " + bound.toSeconds() + " s):\n" + p.tail());
        }
        if (line.startsWith(prefix)) {
          return line;
        }
        if (line.startsWith("BAD ")) {
          throw new IllegalStateException("the SOFARPC consumer did not understand: " + line);
        }
      }
    }
  }
}
