package io.boltgen.bench.load;

import java.util.Locale;

/** How calls are issued; the same for every system. */
public enum Workload {
  /** 32 threads, each making blocking calls one after another, all over one connection. */
  SYNC("sync-32", 32),
  /** 256 calls in flight on one connection: each completion issues the next call. */
  ASYNC("async-256", 256);

  private final String label;
  private final int concurrency;

  Workload(String label, int concurrency) {
    this.label = label;
    this.concurrency = concurrency;
  }

  /** The name in tables and on the command line. */
  public String label() {
    return label;
  }

  /** Threads (sync) or calls in flight (async). */
  public int concurrency() {
    return concurrency;
  }

  /** Parses {@code sync}, {@code sync-32}, {@code async} or {@code async-256}. */
  public static Workload parse(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    for (Workload w : values()) {
      if (w.label.equals(v) || w.name().toLowerCase(Locale.ROOT).equals(v)) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown workload " + s + " (sync-32 or async-256)");
  }
}
