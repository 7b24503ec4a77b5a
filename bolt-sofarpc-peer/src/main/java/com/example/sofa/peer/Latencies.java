package com.example.sofa.peer;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Latencies in nanoseconds, recorded from many threads at once into log-linear buckets (exact below 2,048 ns, then
 * 256 buckets per power of two: within 0.4%), as HdrHistogram would, without adding it to SOFARPC's class path.
 */
final class Latencies {
  private static final int LINEAR = 2048;
  private static final int SUB_BITS = 8;
  private static final int BUCKETS = LINEAR + (64 - 11) * (1 << SUB_BITS);

  private final AtomicReference<AtomicLongArray> counts = new AtomicReference<>(new AtomicLongArray(BUCKETS));

  void record(long nanos) {
    counts.get().incrementAndGet(index(Math.max(0, nanos)));
  }

  /** The counts recorded since the last take (a call recording meanwhile may land in either). */
  long[] take() {
    AtomicLongArray old = counts.getAndSet(new AtomicLongArray(BUCKETS));
    long[] out = new long[BUCKETS];
    for (int i = 0; i < BUCKETS; i++) {
      out[i] = old.get(i);
    }
    return out;
  }

  static int index(long v) {
    if (v < LINEAR) {
      return (int) v;
    }
    int log2 = 63 - Long.numberOfLeadingZeros(v); // >= 11
    int sub = (int) ((v >>> (log2 - SUB_BITS)) & ((1 << SUB_BITS) - 1));
    return LINEAR + (log2 - 11) * (1 << SUB_BITS) + sub;
  }

  /** The smallest value of bucket {@code i}. */
  static long lowest(int i) {
    if (i < LINEAR) {
      return i;
    }
    int log2 = (i - LINEAR) / (1 << SUB_BITS) + 11;
    long sub = (long) (i - LINEAR) % (1 << SUB_BITS);
    return (1L << log2) + (sub << (log2 - SUB_BITS));
  }

  /** The value at {@code percentile} of {@code counts} (a bucket's lowest value), or NaN without any. */
  static double percentile(long[] counts, double percentile) {
    long total = 0;
    for (long c : counts) {
      total += c;
    }
    if (total == 0) {
      return Double.NaN;
    }
    long rank = Math.max(1, (long) Math.ceil(percentile / 100 * total));
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return lowest(i);
      }
    }
    return lowest(counts.length - 1);
  }
}
