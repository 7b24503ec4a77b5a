package io.boltgen.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.DoubleFunction;
import java.util.function.ToDoubleFunction;

/**
 * The median of several runs' values and their range.
 *
 * @param median the median (the mean of the middle two for an even count)
 * @param min the smallest value
 * @param max the largest value
 * @param n how many values
 */
public record Spread(double median, double min, double max, int n) {

  /** The spread of {@code values}; NaNs for none. */
  public static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Spread(median, sorted.get(0), sorted.get(n - 1), n);
  }

  /** The spread of {@code f} over {@code items} (a metric over rounds, runs or forks). */
  public static <T> Spread over(List<T> items, ToDoubleFunction<T> f) {
    return of(items.stream().map(t -> f.applyAsDouble(t)).toList());
  }

  /** {@code median (min–max)} in {@code format}; the median alone for fewer than two values. */
  public String format(DoubleFunction<String> format) {
    return n < 2 ? format.apply(median)
        : format.apply(median) + " (" + format.apply(min) + "–" + format.apply(max) + ")";
  }

  /** {@code 1.36× (1.30–1.41×)}: a ratio's median and range; {@code n/a} for none. */
  public String ratio() {
    return n == 0 ? "n/a" : n < 2 ? Fmt.ratio(median)
        : Fmt.ratio(median) + " (" + Fmt.num(min, 2) + "–" + Fmt.ratio(max) + ")";
  }
}
