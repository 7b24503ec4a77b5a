package io.boltgen.bench.report;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.jmh.CodecBench.Score;
import java.util.List;
import java.util.Map;

/** The JMH codec results as console and Markdown tables, with the codec targets. */
public final class CodecReport {

  private static final Map<String, String> NAMES = Map.of(
      "boltgen", "boltgen record codec",
      "protobufBytes", "protobuf-java, byte[]",
      "protobufDirect", "protobuf-java, direct ByteBuf",
      "hessian2", "Hessian2 (sofa-hessian)");

  private final Map<String, Map<String, Score>> scores;
  private final Map<String, Integer> sizes;

  /** The report of JMH {@code scores} by codec and operation, and each codec's encoded {@code sizes}. */
  public CodecReport(Map<String, Map<String, Score>> scores, Map<String, Integer> sizes) {
    this.scores = scores;
    this.sizes = sizes;
  }

  /** The JMH settings as a bullet: forks, iterations, and with {@code flags} the forked JVMs' flags. */
  public static String settings(CodecBench.Settings j, boolean flags) {
    return "- JMH 1.37: " + j.forks() + " fork(s) per benchmark, " + j.warmupIterations() + " warm-up and "
        + j.iterations() + " measured iterations of " + j.iterationMillis() + " ms, one thread, `-prof gc`"
        + (flags ? "; forked JVMs run with `" + String.join(" ", j.jvmFlags()) + "`" : "") + ".\n";
  }

  private Score score(String codec, String op) {
    Map<String, Score> ops = scores.get(codec);
    return ops == null ? null : ops.get(op);
  }

  private static String ns(Score s) {
    return s == null ? "–" : s.nanos().format(v -> Fmt.num(v, 0));
  }

  private static String bytes(Score s) {
    return s == null || s.bytes().n() == 0 ? "–" : Fmt.num(s.bytes().median(), 0);
  }

  /** The console table. */
  public String console() {
    Table t = new Table("lrrrrrr", "codec", "encode ns", "decode ns", "round trip ns", "enc B/op", "rt B/op", "bytes");
    measured().forEach(codec -> t.row(NAMES.get(codec), ns(score(codec, "encode")), ns(score(codec, "decode")),
        ns(score(codec, "roundTrip")), bytes(score(codec, "encode")), bytes(score(codec, "roundTrip")),
        sizes.getOrDefault(codec, 0)));
    return "\nCodecs (JMH, one Order: ns/op median over forks (min–max), B/op allocated)\n"
        + t.console("  %-30s %20s %20s %20s %10s %10s %8s%n") + targets().lines("  target: %-52s %-10s %-10s %s%n");
  }

  /** The Markdown table and targets. */
  public String markdown() {
    Table t = new Table("lrrrrrrr", "codec", "encode ns/op", "decode ns/op", "round trip ns/op", "encode B/op",
        "decode B/op", "round trip B/op", "encoded bytes");
    measured().forEach(codec -> t.row(NAMES.get(codec), ns(score(codec, "encode")), ns(score(codec, "decode")),
        ns(score(codec, "roundTrip")), bytes(score(codec, "encode")), bytes(score(codec, "decode")),
        bytes(score(codec, "roundTrip")), sizes.getOrDefault(codec, 0)));
    Table targets = targets();
    return t.markdown() + (targets.isEmpty() ? "" : "\n" + targets.markdown());
  }

  private List<String> measured() {
    return CodecBench.CODECS.stream().filter(scores::containsKey).toList();
  }

  private Table targets() {
    Table out = new Table("lrrl", "codec target (round trip)", "boltgen", "target", "met");
    Score boltgen = score("boltgen", "roundTrip");
    if (boltgen == null) {
      return out;
    }
    Score best = null;
    String bestName = null;
    for (String p : List.of("protobufBytes", "protobufDirect")) {
      Score s = score(p, "roundTrip");
      if (s != null && (best == null || s.nanos().median() < best.nanos().median())) {
        best = s;
        bestName = NAMES.get(p);
      }
    }
    if (best != null) {
      double t = boltgen.nanos().median() / best.nanos().median();
      out.row("time vs the faster protobuf-java (" + bestName + ")", Fmt.ratio(t), "≤ 0.80×",
          t <= 0.8 ? "yes" : "NO");
      double leastBytes = Double.MAX_VALUE;
      for (String p : List.of("protobufBytes", "protobufDirect")) {
        Score s = score(p, "roundTrip");
        if (s != null && s.bytes().n() > 0) {
          leastBytes = Math.min(leastBytes, s.bytes().median());
        }
      }
      if (boltgen.bytes().n() > 0 && leastBytes != Double.MAX_VALUE) {
        double a = boltgen.bytes().median() / leastBytes;
        out.row("allocation vs the leaner protobuf-java (" + Fmt.num(leastBytes, 0) + " B)", Fmt.ratio(a), "≤ 0.50×",
            a <= 0.5 ? "yes" : "NO");
      }
    }
    Score hessian = score("hessian2", "roundTrip");
    if (hessian != null) {
      double speedup = hessian.nanos().median() / boltgen.nanos().median();
      out.row("speed-up over Hessian2", Fmt.ratio(speedup), "≥ 5.00×", speedup >= 5 ? "yes" : "NO");
    }
    return out;
  }
}
