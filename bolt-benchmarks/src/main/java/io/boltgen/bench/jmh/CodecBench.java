package io.boltgen.bench.jmh;

import io.boltgen.bench.codec.OrderCodecBenchmark;
import io.boltgen.bench.report.Spread;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link OrderCodecBenchmark} through JMH with the GC profiler and folds the result: per codec and
 * operation, the median over forks of each fork's score (ns/op) and allocation (bytes/op, from
 * {@code gc.alloc.rate.norm}), with the range over forks. JMH's own output goes to a log file; the console
 * gets one line per benchmark.
 */
public final class CodecBench {

  /** The codecs, in report order. */
  public static final List<String> CODECS = List.of("boltgen", "protobufBytes", "protobufDirect", "hessian2");
  /** The operations, in report order. */
  public static final List<String> OPS = List.of("encode", "decode", "roundTrip");

  /**
   * How JMH runs.
   *
   * @param forks forks per benchmark (0 runs in this JVM: for smoke tests only)
   * @param warmupIterations warm-up iterations per fork
   * @param iterations measured iterations per fork
   * @param iterationMillis the length of each iteration
   * @param jvmFlags flags of the forked JVMs
   * @param include a regular expression over benchmark method names (e.g. {@code boltgen_.*}); null for all
   */
  public record Settings(int forks, int warmupIterations, int iterations, long iterationMillis, List<String> jvmFlags,
      String include) {}

  /**
   * One codec operation.
   *
   * @param nanos ns/op
   * @param bytes bytes allocated per op
   */
  public record Score(Spread nanos, Spread bytes) {}

  private CodecBench() {}

  /** Runs the benchmark; returns scores by codec, then operation. */
  public static Map<String, Map<String, Score>> run(Settings settings, PrintStream progress, Path log)
      throws RunnerException, IOException {
    return run(OrderCodecBenchmark.class, settings, progress, log);
  }

  /**
   * Runs the methods of {@code benchmark}, a JMH class whose methods are named {@code <codec>_<operation>} (such as
   * {@link JsonCodecBenchmark}); returns scores by codec, then operation.
   */
  public static Map<String, Map<String, Score>> run(Class<?> benchmark, Settings settings, PrintStream progress,
      Path log) throws RunnerException, IOException {
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(benchmark.getName() + "\\." + (settings.include() == null ? ".*" : settings.include()))
        .forks(settings.forks())
        .warmupIterations(settings.warmupIterations())
        .warmupTime(TimeValue.milliseconds(settings.iterationMillis()))
        .measurementIterations(settings.iterations())
        .measurementTime(TimeValue.milliseconds(settings.iterationMillis()))
        .threads(1)
        .addProfiler(GCProfiler.class)
        .shouldFailOnError(true)
        .verbosity(VerboseMode.NORMAL);
    if (settings.forks() > 0) {
      options.jvmArgs(settings.jvmFlags().toArray(String[]::new));
    }
    Files.createDirectories(log.toAbsolutePath().getParent());
    Collection<RunResult> results;
    try (OutputStream file = Files.newOutputStream(log);
        PrintStream jmhLog = new PrintStream(file, true, StandardCharsets.UTF_8)) {
      OutputFormat format = progress(OutputFormatFactory.createFormatInstance(jmhLog, VerboseMode.NORMAL), progress);
      results = new Runner(options.build(), format).run();
    }
    Map<String, Map<String, Score>> scores = new LinkedHashMap<>();
    for (RunResult r : results) {
      String method = r.getParams().getBenchmark();
      String name = method.substring(method.lastIndexOf('.') + 1);
      int underscore = name.indexOf('_');
      String codec = name.substring(0, underscore);
      String op = name.substring(underscore + 1);
      List<Double> nanos = new ArrayList<>();
      List<Double> bytes = new ArrayList<>();
      for (BenchmarkResult fork : r.getBenchmarkResults()) {
        nanos.add(fork.getPrimaryResult().getScore());
        Result<?> alloc = allocation(fork.getSecondaryResults());
        if (alloc != null) {
          bytes.add(alloc.getScore());
        }
      }
      scores.computeIfAbsent(codec, k -> new LinkedHashMap<>()).put(op, new Score(Spread.of(nanos), Spread.of(bytes)));
    }
    return scores;
  }

  private static Result<?> allocation(Map<String, Result> secondary) {
    for (Map.Entry<String, Result> e : secondary.entrySet()) {
      if (e.getKey().endsWith("gc.alloc.rate.norm")) {
        return e.getValue();
      }
    }
    return null;
  }

  /**
   * JMH's normal output (to the log) with one console line per benchmark: its name when it starts, its score and
   * allocation when it ends.
   */
  private static OutputFormat progress(OutputFormat log, PrintStream console) {
    int[] started = {0};
    return (OutputFormat) Proxy.newProxyInstance(OutputFormat.class.getClassLoader(), new Class<?>[] {OutputFormat.class},
        (proxy, method, args) -> {
          if (method.getName().equals("startBenchmark")) {
            String name = ((BenchmarkParams) args[0]).getBenchmark();
            console.printf(Locale.ROOT, "  [jmh %2d] %-28s ", ++started[0], name.substring(name.lastIndexOf('.') + 1));
            console.flush();
          } else if (method.getName().equals("endBenchmark") && args[0] instanceof BenchmarkResult result) {
            Result<?> alloc = allocation(result.getSecondaryResults());
            console.printf(Locale.ROOT, "%10.1f ns/op  %8s B/op%n", result.getPrimaryResult().getScore(),
                alloc == null ? "?" : String.format(Locale.ROOT, "%.0f", alloc.getScore()));
          } else if (method.getName().equals("endBenchmark")) {
            console.println("failed (see the JMH log)");
          }
          try {
            return method.invoke(log, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
