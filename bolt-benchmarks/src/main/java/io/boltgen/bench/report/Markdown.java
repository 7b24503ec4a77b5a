package io.boltgen.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

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

  /**
   * How every report begins: its {@code # title}, the note that {@code writer} wrote it, the {@link #warnings}, and
   * when, for how long and with which command it was measured.
   */
  public static String head(String title, Class<?> writer, List<String> caveats, List<String> failures,
      Instant started, Duration took, String command) {
    return "# " + title + "\n\n<!-- Written by bolt-benchmarks (" + writer.getName() + "). Do not edit the numbers by"
        + " hand: rerun the command below. -->\n\n" + warnings(caveats, failures) + "Measured "
        + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0)) + " UTC in "
        + Fmt.duration(took) + " with:\n\n```\n" + command + "\n```\n\n";
  }

  /** The {@code ## Machine} section: the machine as {@link MachineInfo#read} found it, and the load at the end. */
  public static String machine(Map<String, String> machine, String loadAverageEnd) {
    StringBuilder md = new StringBuilder("## Machine\n\n| | |\n|---|---|\n");
    machine.forEach((k, v) -> md.append(row(k, v)));
    return md.append(row("load average at end", loadAverageEnd)).append('\n').toString();
  }
}
