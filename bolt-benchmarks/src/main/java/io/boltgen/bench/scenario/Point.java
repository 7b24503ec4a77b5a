package io.boltgen.bench.scenario;

import java.util.List;

/**
 * The load of one measured window, closed-loop: {@code perConnection} threads making blocking calls back to back
 * ({@code sync}) or calls in flight, each completion issuing the next ({@code !sync}), on each of {@code connections}
 * client connections, with payloads of {@code payloadBytes} random bytes; {@code policy} names the balancing policy
 * of a call to a cluster (empty otherwise). {@code id} names the point in tables, e.g. {@code sync-32/100B},
 * {@code payload-16KiB}, {@code LEAST_PENDING}.
 */
public record Point(String id, boolean sync, int connections, int perConnection, int payloadBytes, String policy) {

  public Point {
    if (id.isBlank() || id.contains(";") || id.contains(",") || connections < 1 || perConnection < 1 || payloadBytes < 0) {
      throw new IllegalArgumentException("a point needs a name, a connection, a call in flight and a payload: " + id);
    }
  }

  /** Calls in flight (or blocking threads) in all. */
  public int inflight() {
    return connections * perConnection;
  }

  /** One word for a command line; {@link #parse} reads it. */
  public String token() {
    return String.join(";", id, sync ? "sync" : "async", Integer.toString(connections), Integer.toString(perConnection),
        Integer.toString(payloadBytes), policy);
  }

  /** The point of {@link #token()}. */
  public static Point parse(String token) {
    String[] f = token.split(";", -1);
    if (f.length != 6) {
      throw new IllegalArgumentException("not a point: " + token);
    }
    return new Point(f[0], f[1].equals("sync"), Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]),
        f[5]);
  }

  /** {@code a,b}: tokens joined. */
  public static String tokens(List<Point> points) {
    return String.join(",", points.stream().map(Point::token).toList());
  }

  /** {@code 100B}, {@code 1KiB}, {@code 1MiB}. */
  public static String bytes(int bytes) {
    if (bytes > 0 && bytes % (1024 * 1024) == 0) {
      return bytes / (1024 * 1024) + "MiB";
    }
    return bytes > 0 && bytes % 1024 == 0 ? bytes / 1024 + "KiB" : bytes + "B";
  }
}
