package io.boltgen.bench.scenario;

/**
 * When a measured window was too noisy to keep: processes other than the benchmark's JVMs used more than
 * {@code thresholdPercent} of one core during it. A noisy window is measured again, up to {@code maxRepeats}
 * more times; if every attempt was noisy, the quietest is kept and marked as noisy in the report.
 *
 * @param thresholdPercent other processes' CPU above which a window is noisy, in percent of one core
 * @param maxRepeats how many more windows a noisy one may be replaced by
 */
public record QuietPolicy(double thresholdPercent, int maxRepeats) {

  /** 5% of one core, 2 repeats. */
  public static final QuietPolicy DEFAULT = new QuietPolicy(5, 2);

  public QuietPolicy {
    if (!(thresholdPercent >= 0) || maxRepeats < 0) {
      throw new IllegalArgumentException("quiet threshold and repeats must not be negative");
    }
  }

  /** Whether a window whose other-CPU was {@code otherPercent} is noisy (an unknown figure, NaN, is not). */
  public boolean noisy(double otherPercent) {
    return otherPercent > thresholdPercent;
  }

  /** Whether to measure again after {@code attempts} windows (1 after the first), the last {@code otherPercent}. */
  public boolean again(double otherPercent, int attempts) {
    return noisy(otherPercent) && attempts <= maxRepeats;
  }

}
