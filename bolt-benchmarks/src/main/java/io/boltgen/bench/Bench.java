package io.boltgen.bench;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.report.ClusterReport;
import io.boltgen.bench.report.CodecReport;
import io.boltgen.bench.report.LoadReport;
import io.boltgen.bench.report.ScalingReport;
import io.boltgen.bench.run.Runner;
import io.boltgen.bench.run.Window;
import io.boltgen.bench.scenario.ClusterBalancing;
import io.boltgen.bench.scenario.LoadMatrix;
import io.boltgen.bench.scenario.ScalingCurves;
import java.nio.file.Path;
import java.util.List;

/**
 * What the load, scaling, cluster and codec commands run ({@link Plan}) and what came out ({@link Result}):
 * {@link BenchRun} runs a plan, {@link BenchmarksPage} renders docs/benchmarks.md of its result.
 */
public final class Bench {


  /**
   * What to run; a null part is skipped.
   *
   * @param docs where to write docs/benchmarks.md (load, scaling link, codecs), or null for none
   * @param scalingDocs where to write the scaling report (its charts go to {@code img/} beside it), or null
   * @param clusterDocs where to write the cluster report (docs/benchmarks-cluster.md), or null
   * @param command the command line that ran this, for the reports
   * @param caveats why these numbers are not the full measurement (quick settings, a subset…), for the reports
   * @param logDir where child JVM logs and the JMH log go
   */
  public record Plan(LoadMatrix load, ScalingCurves scaling, CodecBench.Settings jmh, ClusterBalancing cluster, Path docs,
      Path scalingDocs, Path clusterDocs, String command, List<String> caveats, Path logDir) {

    public Plan {
      caveats = List.copyOf(caveats);
    }

    /** This plan with {@code more} caveats (the run's own, such as a machine busy at the start). */
    Plan withCaveats(List<String> more) {
      return new Plan(load, scaling, jmh, cluster, docs, scalingDocs, clusterDocs, command, more, logDir);
    }
  }

  /**
   * What came out; a part that did not run is null.
   *
   * @param failures what failed
   */
  public record Result(Runner.Outcome<Window> load, LoadReport loadReport, Runner.Outcome<Window> scaling,
      ScalingReport scalingReport, CodecReport codecs, Runner.Outcome<Window> cluster, ClusterReport clusterReport,
      List<String> failures) {}

  private Bench() {}
}
