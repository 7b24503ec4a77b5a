package io.boltgen.bench.load;

/**
 * One point of a scaling curve: async calls of {@code payloadBytes}, {@code inflightPerConnection} of them in
 * flight on each of {@code connections} client connections (each completion issuing the next call on the same
 * connection).
 */
public record ScalePoint(Sweep sweep, int connections, int inflightPerConnection, int payloadBytes) {

  public ScalePoint {
    if (connections < 1 || inflightPerConnection < 1 || payloadBytes < 0) {
      throw new IllegalArgumentException("a point needs a connection, a call in flight and a payload");
    }
  }

  /** The value on the curve's x axis. */
  public int x() {
    return switch (sweep) {
      case INFLIGHT -> inflightPerConnection;
      case PAYLOAD -> payloadBytes;
      case CONNECTIONS -> connections;
    };
  }

  /** Calls in flight in all. */
  public int inflight() {
    return connections * inflightPerConnection;
  }

  /** E.g. {@code inflight-256}, {@code payload-16KiB}, {@code connections-64}. */
  public String label() {
    return sweep.id() + "-" + (sweep == Sweep.PAYLOAD ? LoadCase.payloadLabel(payloadBytes) : Integer.toString(x()));
  }

  /** {@code sweep/connections/inflightPerConnection/payloadBytes}, as {@link #parse} reads it. */
  public String token() {
    return sweep.id() + "/" + connections + "/" + inflightPerConnection + "/" + payloadBytes;
  }

  /** Parses {@link #token()}. */
  public static ScalePoint parse(String token) {
    String[] f = token.trim().split("/");
    if (f.length != 4) {
      throw new IllegalArgumentException("expected sweep/connections/inflight/payload, got " + token);
    }
    return new ScalePoint(Sweep.parse(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]));
  }
}
