package io.boltgen.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** How this process was started: the command line as a reader would retype it, and the repository it runs in. */
final class Invocation {

  private Invocation() {}

  /** How this process was started, as a reader would retype it. */
  static String commandLine(String[] argv) {
    Path jar = ownJar();
    Path cwd = Path.of("").toAbsolutePath();
    StringBuilder sb = new StringBuilder(jar == null ? "java -cp <class path> io.boltgen.bench.Main"
        : "java -jar " + (jar.startsWith(cwd) ? cwd.relativize(jar) : jar));
    for (String arg : argv) {
      sb.append(' ').append(arg.isEmpty() || arg.matches(".*[\\s\"'$*].*") ? "'" + arg.replace("'", "'\\''") + "'" : arg);
    }
    return sb.toString();
  }

  private static Path ownJar() {
    try {
      Path p = Path.of(Invocation.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return p.toString().endsWith(".jar") ? p.toAbsolutePath() : null;
    } catch (Exception e) {
      return null;
    }
  }

  /** The boltgen repository root: above this jar (bolt-benchmarks/target/x.jar) or the working directory. */
  static Path repoRoot() {
    Path jar = ownJar();
    for (Path start : jar != null ? List.of(jar.getParent(), Path.of("").toAbsolutePath())
        : List.of(Path.of("").toAbsolutePath())) {
      for (Path p = start; p != null; p = p.getParent()) {
        if (Files.isRegularFile(p.resolve("bolt-benchmarks").resolve("pom.xml"))) {
          return p;
        }
      }
    }
    return null;
  }

  /** The repository's docs directory ({@code docs} of the working directory when no repository is found). */
  static Path docs() {
    Path root = repoRoot();
    return root != null ? root.resolve("docs") : Path.of("docs");
  }
}
