package io.boltgen.bench.load;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of the systems in one run: all of them, interleaved, run {@code r} starting with the system at
 * index {@code (r - 1) mod n} and going round, so that no system always goes first (into a machine still
 * settling from the build, say) or always last.
 */
public final class Rotation {

  private Rotation() {}

  /** {@code items} rotated for run {@code run} (1-based). */
  public static <T> List<T> of(List<T> items, int run) {
    int n = items.size();
    List<T> out = new ArrayList<>(n);
    if (n == 0) {
      return out;
    }
    int first = Math.floorMod(run - 1, n);
    for (int i = 0; i < n; i++) {
      out.add(items.get((first + i) % n));
    }
    return out;
  }
}
