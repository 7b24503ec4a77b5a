package io.boltgen.bench.sofarpc;

import static io.boltgen.bench.sofarpc.SofaRpcBench.BOLTGEN;
import static io.boltgen.bench.sofarpc.SofaRpcBench.SOFARPC;
import static io.boltgen.bench.sofarpc.SofaRpcBench.estimate;

import io.boltgen.bench.report.Fmt;
import io.boltgen.bench.report.MachineInfo;
import io.boltgen.bench.run.Loads;
import io.boltgen.bench.run.CpuWindow;
import io.boltgen.bench.run.Session;
import io.boltgen.bench.scenario.QuietPolicy;
import io.boltgen.bench.sofarpc.SofaRpcBench.Case;
import io.boltgen.bench.sofarpc.SofaRpcBench.Result;
import io.boltgen.bench.sofarpc.SofaRpcBench.Settings;
import io.boltgen.bench.sofarpc.SofaRpcBench.Window;
import io.boltgen.runtime.BoltClient;
import io.boltgen.testing.ReadyProcess;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

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
    List<Window> windows = new ArrayList<>();
    try (ReadyProcess provider = SofaPeer.provider(s.peerClasspath(), s.jvmFlags(), s.logDir());
        ReadyProcess consumer = SofaPeer.consumer(s.peerClasspath(), s.jvmFlags(), s.logDir(),
            "127.0.0.1:" + provider.port());
        BoltClient client = BoltClient.builder().build()) {
      String address = "127.0.0.1:" + provider.port();
      out.printf("  SOFARPC provider: pid %d at %s; SOFARPC consumer: pid %d; boltgen client: this JVM (pid %d)%n",
          provider.pid(), address, consumer.pid(), ProcessHandle.current().pid());
      Sides sides = new Sides(s, client, address, provider.pid(), consumer);
      List<Case> cases = s.cases();
      for (int round = 1; round <= s.rounds(); round++) {
        for (int k = 0; k < cases.size(); k++) {
          Case c = cases.get((k + round - 1) % cases.size());
          boolean boltgenFirst = round % 2 == 1;
          for (String side : boltgenFirst ? List.of(BOLTGEN, SOFARPC) : List.of(SOFARPC, BOLTGEN)) {
            int r = round;
            try {
              Window w = quietest(s.quiet(), out, () -> side.equals(BOLTGEN) ? sides.boltgen(c, r) : sides.sofarpc(c, r));
              windows.add(w);
              if (w.errors() > 0 || w.calls() == 0) {
                session.recordFailure(String.format(Locale.ROOT, "%s, %s, round %d: %d calls, %d errors %s", side, c.id(), r,
                    w.calls(), w.errors(), w.firstError()));
              }
            } catch (Exception e) {
              session.failed(side + ", " + c.id() + ", round " + r + ": " + e);
            }
          }
        }
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

  /** A window by the one quiet rule ({@link QuietPolicy#quietest}), with its progress line. */
  static Window quietest(QuietPolicy quiet, PrintStream out, QuietPolicy.Attempt<Window, Exception> attempt)
      throws Exception {
    Window done = quiet.quietest(attempt, Window::otherCpuPercent, Window::attempts, w -> w.side() + " " + w.c().id(),
        line -> out.println("  " + line));
    out.println("  " + SofaRpcReport.describe(done));
    return done;
  }

  /** The two sides' windows: the boltgen client in this JVM and the SOFARPC consumer's JVM. */
  private static final class Sides {
    final Settings s;
    final Map<String, Loads.Caller> calls = new LinkedHashMap<>();
    final long providerPid;
    final ReadyProcess consumer;

    Sides(Settings s, BoltClient client, String address, long providerPid, ReadyProcess consumer) {
      this.s = s;
      this.providerPid = providerPid;
      this.consumer = consumer;
      calls.put("protobuf", Workload.echo(client, address));
      calls.put("hessian2", Workload.greet(client, address));
    }

    Window boltgen(Case c, int round) throws Exception {
      Loads.Load load = Loads.start(List.of(calls.get(c.serializer())), c.sync(), c.concurrency(), 1);
      try {
        Thread.sleep(s.warmup().toMillis()); // the warm-up: the load runs meanwhile
        CpuWindow cpu = CpuWindow.start(List.of(providerPid, consumer.pid()), ProcessHandle.current().pid());
        load.reset();
        Thread.sleep(s.measure().toMillis()); // the measured window
        Loads.Taken w = load.take();
        Histogram h = w.all();
        boolean any = h.getTotalCount() > 0;
        long calls = h.getTotalCount();
        CpuWindow.Cost cost = cpu.end(calls);
        return new Window(c, BOLTGEN, round, calls, w.errors(), w.firstError(), w.seconds(),
            any ? h.getValueAtPercentile(50) / 1000.0 : Double.NaN, any ? h.getValueAtPercentile(99) / 1000.0 : Double.NaN,
            cost.subjectUs().get(0), cost.otherPercent(), 1, false);
      } finally {
        load.stop();
      }
    }

    Window sofarpc(Case c, int round) throws Exception {
      consumer.send(c.serializer() + " " + (c.sync() ? "sync" : "async") + " " + c.concurrency() + " "
          + s.warmup().toMillis() + " " + s.measure().toMillis());
      Duration bound = s.warmup().plus(s.measure()).plusSeconds(60);
      next(consumer, "MEASURING", bound);
      CpuWindow window = CpuWindow.start(List.of(providerPid, consumer.pid()));
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
