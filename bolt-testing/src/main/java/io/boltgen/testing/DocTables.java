package io.boltgen.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tables in boltgen's docs that tests hold the code to: a module's table of its public types, whose rows
 * each start with a name in back-quotes.
 */
public final class DocTables {

  private static final Pattern ROW = Pattern.compile("(?m)^\\| `([\\w.]+)` \\|");

  private DocTables() {}

  /** The repository's file {@code relative} ({@code docs/http.md}, say), found above the working directory. */
  public static Path repositoryFile(String relative) {
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve(relative))) {
        return dir.resolve(relative);
      }
    }
    throw new IllegalStateException("no " + relative + " in " + start + " or above it");
  }

  /**
   * The back-quoted names that start the table rows of the section of {@code doc} headed {@code heading}
   * ({@code "## The module"}, say), up to the next section of that level.
   */
  public static Set<String> firstColumn(Path doc, String heading) {
    String text;
    try {
      text = Files.readString(doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int section = text.indexOf("\n" + heading + "\n");
    if (section < 0) {
      throw new IllegalStateException(doc + " has no section \"" + heading + "\"");
    }
    String level = heading.substring(0, heading.indexOf(' ') + 1);
    int end = text.indexOf("\n" + level, section + 1);
    Matcher row = ROW.matcher(text.substring(section, end < 0 ? text.length() : end));
    Set<String> names = new TreeSet<>();
    while (row.find()) {
      names.add(row.group(1));
    }
    return names;
  }
}
