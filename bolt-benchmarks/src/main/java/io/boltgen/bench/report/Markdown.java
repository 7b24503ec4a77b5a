package io.boltgen.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Markdown pieces every report uses. */
public final class Markdown {

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(\\w+)}");

  private Markdown() {}

  /** The text of resource {@code name} beside this class (prose the reports put around their tables). */
  public static String resource(String name) {
    try (InputStream in = Markdown.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("no resource " + name + " beside " + Markdown.class.getName(), e);
    }
  }

  /**
   * Resource {@code name} (beside this class) with each {@code ${key}} in it replaced by the value after that key in
   * {@code keysAndValues} (key, value, key, value, …), as {@link String#valueOf(Object)} writes it.
   */
  public static String fill(String name, Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("a key without a value for " + name);
    }
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      values.put(String.valueOf(keysAndValues[i]), String.valueOf(keysAndValues[i + 1]));
    }
    Set<String> unused = new HashSet<>(values.keySet());
    Matcher m = PLACEHOLDER.matcher(resource(name));
    StringBuilder md = new StringBuilder();
    while (m.find()) {
      if (!values.containsKey(m.group(1))) {
        throw new IllegalArgumentException("no value for ${" + m.group(1) + "} in " + name);
      }
      unused.remove(m.group(1));
      m.appendReplacement(md, Matcher.quoteReplacement(values.get(m.group(1))));
    }
    if (!unused.isEmpty()) {
      throw new IllegalArgumentException(name + " has no place for " + unused);
    }
    return m.appendTail(md).toString();
  }

  /** {@code | a | b |} and a newline. */
  public static String row(String... cells) {
    return "| " + String.join(" | ", cells) + " |\n";
  }

  /** {@code - item} a line each, the empty items left out; empty for none. */
  public static String list(List<String> items) {
    StringBuilder md = new StringBuilder();
    items.stream().filter(i -> !i.isEmpty()).forEach(i -> md.append("- ").append(i).append('\n'));
    return md.toString();
  }

  /** {@code <who>: N failed calls, e.g. `<error>`}. */
  public static String failedCalls(String who, long errors, String error) {
    return who + ": " + errors + " failed calls, e.g. `" + error.replace("`", "'") + "`";
  }

  /** An errors cell: {@code 0}, or the count in bold and what failed ({@code |} made {@code /}). */
  public static String errors(long errors, String text) {
    return errors == 0 ? "0" : "**" + errors + "** (" + text.replace('|', '/') + ")";
  }

  /** {@code NOISY: windows kept although other processes <verb> more CPU than the quiet threshold …: <windows>}. */
  public static String noisy(String verb, String where, List<String> windows) {
    return "NOISY: windows kept although other processes " + verb + " more CPU than the quiet threshold in every"
        + " attempt" + where + ": " + String.join(", ", windows);
  }

  /** The line under a section's heading when the run is not a full measurement; empty when it is. */
  public static String partial(List<String> caveats) {
    return caveats.isEmpty() ? "" : "_Not a full measurement: see the note at the top._\n\n";
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
    return title(title, writer, caveats, failures) + measured(started, took) + " with:\n\n```\n" + command
        + "\n```\n\n";
  }

  /** A report's {@code # title}, the note that {@code writer} wrote it, and the {@link #warnings}. */
  public static String title(String title, Class<?> writer, List<String> caveats, List<String> failures) {
    return "# " + title + "\n\n<!-- Written by bolt-benchmarks (" + writer.getName() + "). Do not edit the numbers by"
        + " hand: rerun the command below. -->\n\n" + warnings(caveats, failures);
  }

  /** {@code Measured <start, UTC> UTC in <took>}. */
  public static String measured(Instant started, Duration took) {
    return "Measured " + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(started.atOffset(ZoneOffset.UTC).withNano(0))
        + " UTC in " + Fmt.duration(took);
  }

  /** The {@code ## Machine} section: the machine as {@link MachineInfo#read} found it, and the load at the end. */
  public static String machine(Map<String, String> machine, String loadAverageEnd) {
    StringBuilder md = new StringBuilder("## Machine\n\n| | |\n|---|---|\n");
    machine.forEach((k, v) -> md.append(row(k, v)));
    return md.append(row("load average at end", loadAverageEnd)).append('\n').toString();
  }
}
