package io.boltgen.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

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

  /** The range relative to the median, in percent (0 for a single value). */
  public double rangePercent() {
    return median == 0 || n < 2 ? 0 : (max - min) / Math.abs(median) * 100;
  }
}
