package io.boltgen.bench.scenario;

import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

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

  /** One attempt at a measured window. */
  @FunctionalInterface
  public interface Attempt<W, E extends Exception> {
    W measure() throws E;
  }

  /** The window kept, told how many attempts it took and whether it is noisy. */
  @FunctionalInterface
  public interface Keep<W> {
    W kept(W window, int attempts, boolean noisy);
  }

  /**
   * The rule every window is measured by: one in which other processes took more than the threshold is measured
   * again ({@code say} hears a line naming it by {@code label}), up to {@link #maxRepeats} more times; then the
   * quietest attempt is kept, marked noisy.
   *
   * @param otherPercent the CPU other processes took during a window, % of one core
   */
  public <W, E extends Exception> W quietest(Attempt<W, E> attempt, ToDoubleFunction<W> otherPercent, Keep<W> keep,
      Function<W, String> label, Consumer<String> say) throws E {
    W quietest = null;
    for (int attempts = 1; ; attempts++) {
      W w = attempt.measure();
      double other = otherPercent.applyAsDouble(w);
      if (!noisy(other)) {
        return keep.kept(w, attempts, false);
      }
      if (quietest == null || other < otherPercent.applyAsDouble(quietest)) {
        quietest = w;
      }
      boolean again = again(other, attempts);
      say.accept(String.format(Locale.ROOT, "%s: other processes took %.1f%% of a core in the window (threshold"
          + " %.1f%%)%s", label.apply(w), other, thresholdPercent, again ? "; measuring again"
          : "; keeping the quietest attempt, marked noisy"));
      if (!again) {
        return keep.kept(quietest, attempts, true);
      }
    }
  }
}
