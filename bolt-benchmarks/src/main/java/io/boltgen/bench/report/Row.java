package io.boltgen.bench.report;

import io.boltgen.bench.run.Measured;
import io.boltgen.bench.run.Window;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** The windows of one system at one point, over runs (repeats left out): a row of a report's table. */
public record Row(String system, String point, List<Window> windows) {

  /**
   * The rows of {@code windows} by point, then by system, in the order of {@code points} and {@code systems};
   * a pair without a window has no row.
   */
  public static Map<String, Map<String, Row>> fold(List<Window> windows, List<String> points, List<String> systems) {
    Map<String, Map<String, Row>> rows = new LinkedHashMap<>();
    for (String p : points) {
      Map<String, Row> bySystem = new LinkedHashMap<>();
      for (String s : systems) {
        List<Window> mine = windows.stream().filter(w -> !w.repeat() && w.system().equals(s) && w.point().equals(p))
            .toList();
        if (!mine.isEmpty()) {
          bySystem.put(s, new Row(s, p, mine));
        }
      }
      rows.put(p, bySystem);
    }
    return rows;
  }

  /** {@code metric}'s median and range over the windows. */
  public Spread spread(ToDoubleFunction<Measured> metric) {
    return Spread.over(windows, w -> metric.applyAsDouble(w.m()));
  }

  /** Failed calls in all the windows. */
  public long errors() {
    return windows.stream().mapToLong(w -> w.m().errors()).sum();
  }

  /** One failure's description, or empty. */
  public String firstError() {
    return windows.stream().map(w -> w.m().firstError()).filter(e -> !e.isEmpty()).findFirst().orElse("");
  }

  /** {@code <who>: N failed calls, e.g. `…`} when there were some, else empty. */
  String errorNote(String who) {
    return errors() == 0 ? "" : Markdown.failedCalls(who, errors(), firstError());
  }
}
