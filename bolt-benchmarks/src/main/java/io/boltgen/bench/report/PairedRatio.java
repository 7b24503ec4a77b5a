package io.boltgen.bench.report;

import io.boltgen.bench.load.CaseResult;
import io.boltgen.bench.load.LoadCase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * A ratio between two systems on one case that holds across runs: the median of the per-run paired ratios
 * (system A's metric in run r / system B's in run r; the two ran minutes apart in the same run, so slow drift
 * of the machine cancels out), with the range over runs. Runs where either has no result, or B's metric is 0,
 * are left out.
 */
public final class PairedRatio {

  private PairedRatio() {}

  /** The paired ratios of {@code a} to {@code b} on {@code c}, by {@code metric}, over the runs both measured. */
  public static Spread of(List<CaseResult> results, LoadCase c, String a, String b, ToDoubleFunction<CaseResult> metric) {
    Map<Integer, Double> mine = byRun(results, c, a, metric);
    Map<Integer, Double> theirs = byRun(results, c, b, metric);
    List<Double> ratios = new ArrayList<>();
    for (Map.Entry<Integer, Double> e : mine.entrySet()) {
      Double other = theirs.get(e.getKey());
      if (other != null && other != 0) {
        ratios.add(e.getValue() / other);
      }
    }
    return Spread.of(ratios);
  }

  /** The per-run ratios themselves, by run, for tables. */
  public static Map<Integer, Double> perRun(List<CaseResult> results, LoadCase c, String a, String b,
      ToDoubleFunction<CaseResult> metric) {
    Map<Integer, Double> mine = byRun(results, c, a, metric);
    Map<Integer, Double> theirs = byRun(results, c, b, metric);
    Map<Integer, Double> out = new TreeMap<>();
    mine.forEach((run, v) -> {
      Double other = theirs.get(run);
      if (other != null && other != 0) {
        out.put(run, v / other);
      }
    });
    return out;
  }

  private static Map<Integer, Double> byRun(List<CaseResult> results, LoadCase c, String system,
      ToDoubleFunction<CaseResult> metric) {
    Map<Integer, Double> out = new TreeMap<>();
    for (CaseResult r : results) {
      if (!r.repeat() && r.system().equals(system) && r.loadCase().equals(c)) {
        out.put(r.run(), metric.applyAsDouble(r));
      }
    }
    return out;
  }
}
