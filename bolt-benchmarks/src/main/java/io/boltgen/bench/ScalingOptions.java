package io.boltgen.bench;

import io.boltgen.bench.load.EchoSystem;
import io.boltgen.bench.load.LoadSettings;
import io.boltgen.bench.load.ScalingSettings;
import io.boltgen.bench.load.Sweep;
import io.boltgen.bench.load.Systems;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The command-line options of the scaling curves ({@code scaling}, and {@code all}), as {@link ScalingSettings}. */
final class ScalingOptions {

  private ScalingOptions() {}

  /** The scaling curves' settings; {@code systemsKey} names the option listing their systems. */
  static ScalingSettings parse(Args a, String systemsKey, boolean quick, Path logDir, List<String> caveats) {
    List<EchoSystem> systems = Systems.parse(a.get(systemsKey, ScalingSettings.DEFAULT_SYSTEMS));
    for (EchoSystem s : systems) {
      String why = s.unavailable();
      if (why != null) {
        throw new IllegalArgumentException("system " + s.id() + " cannot run here: " + why);
      }
    }
    List<Sweep> sweeps = new ArrayList<>();
    for (String w : a.list("sweeps", "inflight,payload,connections")) {
      Sweep sweep = Sweep.parse(w);
      if (!sweeps.contains(sweep)) {
        sweeps.add(sweep);
      }
    }
    List<Integer> inflights = ints(a, "inflight", ScalingSettings.DEFAULT_INFLIGHTS);
    List<Integer> payloads = ints(a, "payload-sizes", ScalingSettings.DEFAULT_PAYLOADS);
    List<Integer> connections = ints(a, "connections", ScalingSettings.DEFAULT_CONNECTIONS);
    int payloadInflight = a.getInt("payload-inflight", ScalingSettings.DEFAULT_PAYLOAD_INFLIGHT);
    int perConnection = a.getInt("per-connection", ScalingSettings.DEFAULT_PER_CONNECTION);
    Duration jvmWarmup = a.seconds("scaling-jvm-warmup", quick ? 3 : 30);
    Duration warmup = a.seconds("scaling-warmup", quick ? 1 : 3);
    Duration measure = a.seconds("scaling-measure", quick ? 2 : 5);
    if (!quick && (jvmWarmup.compareTo(Duration.ofSeconds(30)) < 0 || warmup.compareTo(Duration.ofSeconds(2)) < 0
        || measure.compareTo(Duration.ofSeconds(3)) < 0)) {
      caveats.add("scaling windows shorter than a report needs (30 s JVM warm-up, 2 s warm-up and 3 s measured per"
          + " point)");
    }
    List<String> jvmFlags = a.has("jvm-flags") ? a.words("jvm-flags") : new ArrayList<>(LoadSettings.DEFAULT_JVM_FLAGS);
    return new ScalingSettings(systems, sweeps, inflights, payloads, connections, payloadInflight, perConnection,
        jvmWarmup, warmup, measure, Main.quietPolicy(a), jvmFlags, logDir, "127.0.0.1");
  }

  private static List<Integer> ints(Args a, String key, List<Integer> fallback) {
    if (!a.has(key)) {
      return fallback;
    }
    List<Integer> out = new ArrayList<>();
    for (String v : a.list(key, "")) {
      out.add(Integer.parseInt(v));
    }
    return out;
  }
}
