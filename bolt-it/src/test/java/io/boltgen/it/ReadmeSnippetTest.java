package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The snippet of README.md's "Add it to your build" is, character for character, what the
 * {@code readme-snippet} IT project builds with (src/it/readme-snippet/pom.xml): that project's
 * {@code <dependencies>} and {@code <build>} are the snippet pasted at column 0, with {@code @project.version@}
 * where README shows boltgen's version (the invoker puts the version back before the IT build runs). So an
 * edit to either side fails here until the other follows, and README always shows the current version.
 */
class ReadmeSnippetTest {

  private static final String SECTION = "## Add it to your build";

  @Test
  void theReadmeSnippetIsWhatTheItProjectBuildsWith() throws IOException {
    String snippet = readmeSnippet();
    String itPom = Files.readString(moduleDir().resolve("src/it/readme-snippet/pom.xml"))
        .replace("@project.version@", boltgenVersion());

    assertThat(snippet).as("README's build snippet").contains("<dependencies>", "<build>",
        "<artifactId>bolt-runtime</artifactId>", "<artifactId>bolt-processor</artifactId>");
    assertThat(itPom).as("src/it/readme-snippet/pom.xml, with boltgen's version filled in").contains(snippet);
  }

  @Test
  void theReadmeSnippetPinsTheCompilerPlugin() throws IOException {
    // Maven 3.8 falls back to maven-compiler-plugin 3.1 without a version, which ignores the processor path
    assertThat(readmeSnippet()).containsPattern(
        "<artifactId>maven-compiler-plugin</artifactId>\\s*(<!--.*-->\\s*)?<version>3\\.\\d+\\.\\d+</version>");
  }

  /** The first xml block after the section heading, without its fences. */
  private static String readmeSnippet() throws IOException {
    String readme = Files.readString(moduleDir().getParent().resolve("README.md"));
    int section = readme.indexOf(SECTION);
    assertThat(section).as("README.md has a section \"%s\"", SECTION).isNotNegative();
    int open = readme.indexOf("```xml\n", section);
    int nextSection = readme.indexOf("\n## ", section + SECTION.length());
    assertThat(open).as("an xml block in that section").isPositive().isLessThan(nextSection);
    int start = open + "```xml\n".length();
    int end = readme.indexOf("\n```", start);
    return readme.substring(start, end + 1);
  }

  private static String boltgenVersion() {
    String version = System.getProperty("boltgen.version");
    assertThat(version).as("system property boltgen.version (set by bolt-it's pom)").isNotBlank();
    return version;
  }

  private static Path moduleDir() {
    Path dir = Path.of("").toAbsolutePath();
    return Files.exists(dir.resolve("src/it/readme-snippet")) ? dir : dir.resolve("bolt-it");
  }
}
