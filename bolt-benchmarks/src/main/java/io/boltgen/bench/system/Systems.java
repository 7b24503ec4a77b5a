package io.boltgen.bench.system;

import io.boltgen.bench.system.boltgen.BoltgenSystem;
import io.boltgen.bench.system.grpc.GrpcSystem;
import io.boltgen.bench.system.netty.NettyHttpEchoSystem;
import io.boltgen.bench.system.netty.RawNettySystem;
import io.boltgen.bench.system.sofabolt.SofaBoltSystem;
import java.util.ArrayList;
import java.util.List;

/** Every system and configuration the load generator knows, in report order. */
public final class Systems {

  private static final List<EchoSystem> ALL = List.of(
      new BoltgenSystem(BoltgenSystem.Mode.DEFAULT),
      new BoltgenSystem(BoltgenSystem.Mode.IO_THREAD),
      new BoltgenSystem(BoltgenSystem.Mode.INTERCEPTED),
      new BoltgenSystem(BoltgenSystem.Mode.MICROMETER),
      new BoltgenSystem(BoltgenSystem.Mode.TLS_JDK),
      new BoltgenSystem(BoltgenSystem.Mode.TLS_OPENSSL),
      new BoltgenSystem(BoltgenSystem.Mode.JDK25),
      new BoltgenSystem(BoltgenSystem.Mode.VIRTUAL),
      new SofaBoltSystem(false, false),
      new SofaBoltSystem(true, false),
      new SofaBoltSystem(true, true),
      new GrpcSystem(false, GrpcSystem.Target.GRPC_JAVA),
      new GrpcSystem(true, GrpcSystem.Target.GRPC_JAVA),
      new GrpcSystem(false, GrpcSystem.Target.BOLTGEN),
      new GrpcSystem(false, GrpcSystem.Target.GRPC_JAVA, true),
      new GrpcSystem(false, GrpcSystem.Target.BOLTGEN, true),
      new RawNettySystem());

  /**
   * Systems of the {@code http} command only (its servers, loaded by wrk over HTTP, and a Bolt client of the same
   * server): never in {@code all}, nor in a family selection; named by their ids.
   */
  private static final List<ServedSystem> HTTP = List.of(
      new BoltgenSystem(BoltgenSystem.Mode.HTTP),
      new NettyHttpEchoSystem());

  /** The configuration the targets judge boltgen by. */
  public static final String BOLTGEN_DEFAULT = "boltgen";

  private Systems() {}

  /** All of them. */
  public static List<EchoSystem> all() {
    return ALL;
  }

  /** The systems of the {@code http} command, which {@link #all()} leaves out. */
  public static List<ServedSystem> http() {
    return HTTP;
  }

  /** The one named {@code id}, of {@link #all()} or {@link #http()}. */
  public static ServedSystem byId(String id) {
    for (List<? extends ServedSystem> list : List.of(ALL, HTTP)) {
      for (ServedSystem s : list) {
        if (s.id().equals(id)) {
          return s;
        }
      }
    }
    throw new IllegalArgumentException("unknown system " + id + "; known: " + ids(ALL) + " (and " + ids(HTTP)
        + ", of the http command)");
  }

  /** The one named {@code id} with a client of its own; fails for a server that only wrk loads. */
  public static EchoSystem client(String id) {
    if (byId(id) instanceof EchoSystem s) {
      return s;
    }
    throw new IllegalArgumentException("system " + id + " is a server alone, loaded by wrk in the http command: it has"
        + " no client");
  }

  /** Parses a comma-separated list of ids, or {@code all}; a family name ({@code grpc}) also selects its variants when followed by {@code *}. */
  public static List<EchoSystem> parse(String list) {
    if (list == null || list.isBlank() || list.trim().equals("all")) {
      return ALL;
    }
    List<EchoSystem> out = new ArrayList<>();
    for (String raw : list.split(",")) {
      String id = raw.trim();
      if (id.isEmpty()) {
        continue;
      }
      if (id.endsWith("*")) {
        String family = id.substring(0, id.length() - 1);
        boolean any = false;
        for (EchoSystem s : ALL) {
          if (s.family().equals(family) && !out.contains(s)) {
            out.add(s);
            any = true;
          }
        }
        if (!any) {
          throw new IllegalArgumentException("no system of family " + family);
        }
      } else {
        EchoSystem s = client(id);
        if (!out.contains(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** Comma-separated ids. */
  public static String ids(List<? extends ServedSystem> systems) {
    StringBuilder sb = new StringBuilder();
    for (ServedSystem s : systems) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(s.id());
    }
    return sb.toString();
  }
}
