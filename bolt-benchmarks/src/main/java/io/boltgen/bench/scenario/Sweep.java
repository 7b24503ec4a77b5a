package io.boltgen.bench.scenario;

import java.util.Locale;

/** One scaling curve: what varies along it, the rest held fixed (see {@link ScalePoint}). */
public enum Sweep {
  /** Calls in flight on one connection, async, 100 B. */
  INFLIGHT("inflight", "calls in flight on one connection"),
  /** Payload size, async, a fixed number of calls in flight on one connection. */
  PAYLOAD("payload", "payload bytes"),
  /** Client connections to the one server, each with a fixed number of async calls of 100 B in flight. */
  CONNECTIONS("connections", "client connections");

  private final String id;
  private final String axis;

  Sweep(String id, String axis) {
    this.id = id;
    this.axis = axis;
  }

  /** The name on the command line, in files and tables. */
  public String id() {
    return id;
  }

  /** What the x axis counts. */
  public String axis() {
    return axis;
  }

  /** Parses {@link #id()}. */
  public static Sweep parse(String s) {
    String v = s.trim().toLowerCase(Locale.ROOT);
    for (Sweep w : values()) {
      if (w.id.equals(v)) {
        return w;
      }
    }
    throw new IllegalArgumentException("unknown sweep " + s + " (inflight, payload or connections)");
  }
}
