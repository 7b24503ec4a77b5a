package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

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

  /** What a snippet printed (its output and errors), and how it ended. */
  record Run(boolean finished, int exitValue, String printed) {}

  /**
   * Runs {@code snippet} with bash in {@code dir} (as {@code snippet.sh}, with {@code TMPDIR} there too), for at most
   * {@code bound}; whatever it started is stopped when it returns, so that no process outlives the test.
   */
  static Run run(Path dir, String snippet, Duration bound) throws IOException, InterruptedException {
    Files.writeString(dir.resolve("snippet.sh"), snippet);
    Path output = dir.resolve("output.txt");
    ProcessBuilder builder = new ProcessBuilder("bash", "snippet.sh").directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().put("TMPDIR", dir.toString()); // temporary files (etcd's data dir) go with the test
    Process bash = builder.start();
    boolean finished = bash.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      bash.descendants().forEach(ProcessHandle::destroyForcibly);
      bash.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String printed = Files.readString(output, StandardCharsets.UTF_8);
    bash.descendants().forEach(ProcessHandle::destroyForcibly); // nothing should be left; never leak one
    return new Run(finished, finished ? bash.exitValue() : -1, printed);
  }

  /** Links {@code relative} in {@code dir} to the jar the system property {@code property} names. */
  static void link(Path dir, String relative, String property) throws IOException {
    Path jar = Path.of(System.getProperty(property));
    assertThat(jar).as("%s (built by the reactor before this module)", relative).exists();
    Files.createDirectories(dir.resolve(relative).getParent());
    Files.createSymbolicLink(dir.resolve(relative), jar.toAbsolutePath());
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
