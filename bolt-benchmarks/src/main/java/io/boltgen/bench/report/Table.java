package io.boltgen.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table every report writes: columns with a header and an alignment, rows of cells added as values, rendered as
 * Markdown ({@link #markdown}) or as console text in fixed-width columns ({@link #console}).
 */
public final class Table {

  /** A conversion of a format string: {@code %%} and {@code %n} take no argument. */
  private static final Pattern CONVERSION = Pattern.compile("%(%|n|[-#+ 0,(<]*\\d*(?:\\.\\d+)?[a-zA-Z])");

  private final String align;
  private final List<String> headers;
  private final List<List<String>> rows = new ArrayList<>();
  private boolean spaced;

  /**
   * A table of {@code headers}, aligned by {@code align}: one letter per column, {@code l} for left ({@code ---}),
   * {@code r} for right ({@code --:}).
   */
  public Table(String align, String... headers) {
    if (align.length() != headers.length || !align.matches("[lr]*")) {
      throw new IllegalArgumentException(align + " does not align " + headers.length + " columns by l and r");
    }
    this.align = align;
    this.headers = List.of(headers);
  }

  /** The Markdown rule with a space either side of each mark, {@code | --- | --: |}, not {@code |---|--:|}. */
  public Table spaced() {
    spaced = true;
    return this;
  }

  /** Adds a row of {@code cells}, each as {@link String#valueOf(Object)} writes it. */
  public Table row(Object... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(cells.length + " cells for the " + headers.size() + " columns " + headers);
    }
    rows.add(Arrays.stream(cells).map(String::valueOf).toList());
    return this;
  }

  /** Whether no row was added. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The header, the rule and the rows, each row {@code | a | b |} on a line of its own. */
  public String markdown() {
    StringBuilder md = new StringBuilder(Markdown.row(headers.toArray(String[]::new)));
    List<String> marks = align.chars().mapToObj(c -> c == 'r' ? "--:" : "---").toList();
    md.append(spaced ? Markdown.row(marks.toArray(String[]::new)) : "|" + String.join("|", marks) + "|\n");
    rows.forEach(r -> md.append(Markdown.row(r.toArray(String[]::new))));
    return md.toString();
  }

  /** The header and the rows, each formatted by {@code format} (e.g. {@code "  %-12s %10s%n"}, a cell per column). */
  public String console(String format) {
    return String.format(Locale.ROOT, format, headers.toArray()) + lines(format);
  }

  /** The rows alone, each formatted by {@code format}. */
  public String lines(String format) {
    Matcher m = CONVERSION.matcher(format);
    int conversions = 0;
    while (m.find()) {
      conversions += m.group(1).equals("%") || m.group(1).equals("n") ? 0 : 1;
    }
    if (conversions != headers.size()) {
      throw new IllegalArgumentException(format + " formats " + conversions + " of the " + headers.size() + " columns "
          + headers);
    }
    StringBuilder sb = new StringBuilder();
    rows.forEach(r -> sb.append(String.format(Locale.ROOT, format, r.toArray())));
    return sb.toString();
  }
}
