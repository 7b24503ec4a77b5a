package io.boltgen.bench.sofarpc;

import io.boltgen.bench.scenario.QuietPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code sofarpc} command: one SOFARPC 5.13.2 provider (bolt-sofarpc-peer, its own JVM), called by a boltgen
 * client in this JVM (the generated {@code @SofaRpcService} stubs) and by a SOFARPC consumer in a JVM of its own
 * ({@code PeerMain bench}), with the same loads: per serializer (protobuf {@code EchoService.echo}, Hessian2
 * {@code GreetService.greet}) sync with threads calling back to back and async with calls in flight. In each round
 * every case runs on both sides, one after the other, the order of the cases rotating and the side going first
 * alternating from round to round. Each window: a warm-up, then the measured window (calls/s, p50/p99, the client
 * process's CPU per call, other processes' CPU); a window in which other processes took more than the quiet policy
 * allows is measured again. Then the report ({@link SofaRpcReport}).
 */
public final class SofaRpcBench {

  public static final int DEFAULT_ROUNDS = 3;
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(10);
  public static final Duration DEFAULT_MEASURE = Duration.ofSeconds(10);
  public static final int DEFAULT_THREADS = 32;
  // below the 200 business threads of a SOFARPC provider (no queue): more calls in flight than that are refused
  // SERVER_THREADPOOL_BUSY by the provider, whichever client sends them
  public static final int DEFAULT_IN_FLIGHT = 128;
  public static final List<String> SERIALIZERS = List.of("protobuf", "hessian2");
  public static final String BOLTGEN = "boltgen";
  public static final String SOFARPC = "sofarpc";

  /**
   * What to run.
   *
   * @param serializers protobuf and/or hessian2, in order
   * @param threads the sync load's threads; {@code inFlight} the async load's calls in flight
   * @param peerClasspath bolt-sofarpc-peer's class path (the text of its target/peer.classpath)
   * @param jvmFlags the flags of the provider's and the consumer's JVMs
   * @param out where the report goes, or null for none
   */
  public record Settings(List<String> serializers, int rounds, Duration warmup, Duration measure, int threads,
      int inFlight, String peerClasspath, QuietPolicy quiet, List<String> jvmFlags, Path logDir, Path out,
      String command, List<String> caveats) {
    public Settings {
      serializers = List.copyOf(serializers);
      jvmFlags = List.copyOf(jvmFlags);
      caveats = List.copyOf(caveats);
      if (serializers.isEmpty() || !SERIALIZERS.containsAll(serializers) || rounds < 1 || threads < 1 || inFlight < 1) {
        throw new IllegalArgumentException("sofarpc needs serializers of " + SERIALIZERS + ", at least one round, one"
            + " thread and one call in flight");
      }
    }

    /** The cases of a round, before rotation: per serializer, sync then async. */
    public List<Case> cases() {
      List<Case> cases = new ArrayList<>();
      for (String s : serializers) {
        cases.add(new Case(s, true, threads));
        cases.add(new Case(s, false, inFlight));
      }
      return cases;
    }
  }

  /** One serializer under one load. */
  public record Case(String serializer, boolean sync, int concurrency) {
    /** {@code sync-32}, {@code async-128}. */
    public String load() {
      return (sync ? "sync-" : "async-") + concurrency;
    }

    public String id() {
      return serializer + " " + load();
    }
  }

  /**
   * One measured window of one side.
   *
   * @param side {@link #BOLTGEN} or {@link #SOFARPC}
   * @param cpuUsPerCall the client process's CPU (all threads) per answered call
   * @param otherCpuPercent other processes' CPU in the window (machine busy time minus this JVM, the provider's and
   *     the consumer's), % of one core; NaN if unknown
   */
  public record Window(Case c, String side, int round, long calls, long errors, String firstError, double seconds,
      double p50Us, double p99Us, double cpuUsPerCall, double otherCpuPercent, int attempts, boolean noisy) {
    public double rate() {
      return seconds > 0 ? calls / seconds : 0;
    }

    Window attempts(int n, boolean isNoisy) {
      return new Window(c, side, round, calls, errors, firstError, seconds, p50Us, p99Us, cpuUsPerCall, otherCpuPercent,
          n, isNoisy);
    }
  }

  /** What came out. */
  public record Result(List<Window> windows, List<String> failures, List<String> caveats) {}

  private SofaRpcBench() {}

  /** The class path in {@code file} (bolt-sofarpc-peer/target/peer.classpath); fails saying how to make it. */
  public static String peerClasspath(Path file) {
    return SofaPeer.classpath(file);
  }

  /** How long {@code s} takes when no window is measured again: every window's warm-up and measure, and JVM starts. */
  public static Duration estimate(Settings s) {
    return s.warmup().plus(s.measure()).multipliedBy(2L * s.cases().size() * s.rounds()).plusSeconds(10);
  }
}
