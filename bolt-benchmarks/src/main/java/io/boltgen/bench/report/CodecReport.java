package io.boltgen.bench.report;

import io.boltgen.bench.jmh.CodecBench;
import io.boltgen.bench.jmh.CodecBench.Score;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

  public CodecReport(Map<String, Map<String, Score>> scores, Map<String, Integer> sizes) {
    this.scores = scores;
    this.sizes = sizes;
  }

  private Score score(String codec, String op) {
    Map<String, Score> ops = scores.get(codec);
    return ops == null ? null : ops.get(op);
  }

  private static String ns(Score s) {
    if (s == null) {
      return "–";
    }
    Spread t = s.nanos();
    return t.n() < 2 ? Fmt.num(t.median(), 0) : Fmt.num(t.median(), 0) + " (" + Fmt.num(t.min(), 0) + "–" + Fmt.num(t.max(), 0) + ")";
  }

  private static String bytes(Score s) {
    return s == null || s.bytes().n() == 0 ? "–" : Fmt.num(s.bytes().median(), 0);
  }

  /** The console table. */
  public String console() {
    StringBuilder sb = new StringBuilder("\nCodecs (JMH, one Order: ns/op median over forks (min–max), B/op allocated)\n");
    sb.append(String.format(Locale.ROOT, "  %-30s %20s %20s %20s %10s %10s %8s%n", "codec", "encode ns", "decode ns",
        "round trip ns", "enc B/op", "rt B/op", "bytes"));
    for (String codec : CodecBench.CODECS) {
      if (!scores.containsKey(codec)) {
        continue;
      }
      sb.append(String.format(Locale.ROOT, "  %-30s %20s %20s %20s %10s %10s %8s%n", NAMES.get(codec),
          ns(score(codec, "encode")), ns(score(codec, "decode")), ns(score(codec, "roundTrip")),
          bytes(score(codec, "encode")), bytes(score(codec, "roundTrip")), sizes.getOrDefault(codec, 0)));
    }
    for (String[] t : targets()) {
      sb.append(String.format(Locale.ROOT, "  target: %-52s %-10s %-10s %s%n", t[0], t[1], t[2], t[3]));
    }
    return sb.toString();
  }

  /** The Markdown table and targets. */
  public String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| codec | encode ns/op | decode ns/op | round trip ns/op | encode B/op | decode B/op | round trip B/op | encoded bytes |\n");
    sb.append("|---|--:|--:|--:|--:|--:|--:|--:|\n");
    for (String codec : CodecBench.CODECS) {
      if (!scores.containsKey(codec)) {
        continue;
      }
      sb.append("| ").append(NAMES.get(codec)).append(" | ").append(ns(score(codec, "encode"))).append(" | ")
          .append(ns(score(codec, "decode"))).append(" | ").append(ns(score(codec, "roundTrip"))).append(" | ")
          .append(bytes(score(codec, "encode"))).append(" | ").append(bytes(score(codec, "decode"))).append(" | ")
          .append(bytes(score(codec, "roundTrip"))).append(" | ").append(sizes.getOrDefault(codec, 0)).append(" |\n");
    }
    List<String[]> targets = targets();
    if (!targets.isEmpty()) {
      sb.append("\n| codec target (round trip) | boltgen | target | met |\n|---|--:|--:|---|\n");
      for (String[] t : targets) {
        sb.append("| ").append(String.join(" | ", t)).append(" |\n");
      }
    }
    return sb.toString();
  }

  private List<String[]> targets() {
    List<String[]> out = new ArrayList<>();
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
      out.add(new String[] {"time vs the faster protobuf-java (" + bestName + ")", Fmt.ratio(t), "≤ 0.80×", t <= 0.8 ? "yes" : "NO"});
      double leastBytes = Double.MAX_VALUE;
      for (String p : List.of("protobufBytes", "protobufDirect")) {
        Score s = score(p, "roundTrip");
        if (s != null && s.bytes().n() > 0) {
          leastBytes = Math.min(leastBytes, s.bytes().median());
        }
      }
      if (boltgen.bytes().n() > 0 && leastBytes != Double.MAX_VALUE) {
        double a = boltgen.bytes().median() / leastBytes;
        out.add(new String[] {"allocation vs the leaner protobuf-java (" + Fmt.num(leastBytes, 0) + " B)", Fmt.ratio(a),
            "≤ 0.50×", a <= 0.5 ? "yes" : "NO"});
      }
    }
    Score hessian = score("hessian2", "roundTrip");
    if (hessian != null) {
      double speedup = hessian.nanos().median() / boltgen.nanos().median();
      out.add(new String[] {"speed-up over Hessian2", Fmt.ratio(speedup), "≥ 5.00×", speedup >= 5 ? "yes" : "NO"});
    }
    return out;
  }
}
