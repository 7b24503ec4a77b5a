package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the snippet tests share: the blocks of the repository's Markdown files, and the fixed ports they use. */
final class Snippets {

  private Snippets() {}

  /**
   * The first bash block after {@code heading} in {@code file} (relative to the repository's root), before the
   * next heading, without its fences.
   */
  static String bashBlock(String file, String heading) throws IOException {
    Path dir = Path.of("").toAbsolutePath();
    Path root = Files.exists(dir.resolve(file)) ? dir : dir.getParent();
    String text = Files.readString(root.resolve(file));
    int section = text.indexOf(heading);
    assertThat(section).as("%s has a section \"%s\"", file, heading).isNotNegative();
    int open = text.indexOf("```bash\n", section);
    int next = text.indexOf("\n#", section + heading.length());
    assertThat(open).as("a bash block in that section").isPositive();
    if (next > 0) {
      assertThat(open).as("a bash block in that section").isLessThan(next);
    }
    int start = open + "```bash\n".length();
    return text.substring(start, text.indexOf("\n```", start) + 1);
  }

  /** Whether nothing listens on {@code port} of the loopback now. */
  static boolean isFree(int port) {
    try {
      new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
