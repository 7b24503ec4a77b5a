package io.boltgen.bench.load;

/** One measured cell: a workload at one payload size. */
public record LoadCase(Workload workload, int payloadBytes) {

  /** E.g. {@code sync-32/100B}. */
  public String label() {
    return workload.label() + "/" + payloadLabel(payloadBytes);
  }

  /** {@code 100B}, {@code 1KiB}, {@code 1MiB}. */
  public static String payloadLabel(int bytes) {
    if (bytes > 0 && bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + "MiB";
    }
    return bytes > 0 && bytes % 1024 == 0 ? bytes / 1024 + "KiB" : bytes + "B";
  }

  /** Parses {@code sync-32/100} or {@code async-256/1024}. */
  public static LoadCase parse(String s) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException("expected workload/payloadBytes, got " + s);
    }
    return new LoadCase(Workload.parse(s.substring(0, slash)), Integer.parseInt(s.substring(slash + 1).trim()));
  }

  /** The inverse of {@link #parse}. */
  public String token() {
    return workload.label() + "/" + payloadBytes;
  }
}
