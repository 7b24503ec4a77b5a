package io.boltgen.bench.load;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes this JVM has allocated: {@code com.sun.management.ThreadMXBean#getThreadAllocatedBytes} summed
 * over the live threads (JDK 17 has no per-JVM total). A thread that ends between two readings takes its bytes
 * with it, so a difference can under-count; the benchmark's threads (pools, event loops, load threads) live
 * through a window.
 */
final class Allocation {

  private Allocation() {}

  /** The bytes allocated so far by this JVM's live threads, or -1 if the JVM cannot tell. */
  static long totalBytes() {
    if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx)
        || !mx.isThreadAllocatedMemorySupported() || !mx.isThreadAllocatedMemoryEnabled()) {
      return -1;
    }
    long sum = 0;
    for (long bytes : mx.getThreadAllocatedBytes(mx.getAllThreadIds())) {
      if (bytes > 0) {
        sum += bytes;
      }
    }
    return sum;
  }
}
