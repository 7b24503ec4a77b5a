package io.boltgen.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Markdown pieces every report uses. */
public final class Markdown {

  private Markdown() {}

  /** The text of resource {@code name} beside this class (prose the reports put around their tables). */
  public static String resource(String name) {
    try (InputStream in = Markdown.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("no resource " + name + " beside " + Markdown.class.getName(), e);
    }
  }

  /** {@code | a | b |} and a newline. */
  public static String row(String... cells) {
    return "| " + String.join(" | ", cells) + " |\n";
  }

  /** The note of a run that is not a full measurement, or of parts that failed; empty when neither. */
  public static String warnings(List<String> caveats, List<String> failures) {
    StringBuilder md = new StringBuilder();
    if (!caveats.isEmpty()) {
      md.append("> **Not a full measurement — do not quote these numbers.** ").append(String.join("; ", caveats))
          .append(".\n\n");
    }
    if (!failures.isEmpty()) {
      md.append("> **Some parts failed:**\n");
      failures.forEach(f -> md.append("> - ").append(f).append('\n'));
      md.append('\n');
    }
    return md.toString();
  }
}
