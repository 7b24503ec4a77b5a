package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The snippets of README.md's "Add it to your build" are, character for character, what IT projects build
 * with: the first (a standalone module) is {@code src/it/readme-snippet/pom.xml}'s {@code <dependencies>} and
 * {@code <build>}, the one under "Under Spring Boot's parent" is {@code src/it/spring-boot-parent/pom.xml}'s
 * {@code <parent>} to {@code <build>}, both pasted at column 0, with {@code @project.version@} where README
 * shows boltgen's version and {@code @netty.version@} where it shows Netty's (the invoker puts the versions
 * back before the IT build runs). So an edit to either side fails here until the other follows, and README
 * always shows the current versions.
 */
class ReadmeSnippetTest {

  private static final String SECTION = "## Add it to your build";
  private static final String BOOT_PARENT = "### Under Spring Boot's parent";

  @Test
  void theReadmeSnippetIsWhatTheItProjectBuildsWith() throws IOException {
    String snippet = readmeSnippet();
    String itPom = itPom("readme-snippet");

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

  @Test
  void theSpringBootParentSnippetIsWhatItsItProjectBuildsWith() throws IOException {
    String snippet = springBootParentSnippet();
    String itPom = itPom("spring-boot-parent");

    assertThat(snippet).as("README's snippet under Spring Boot's parent").contains(
        "<artifactId>spring-boot-starter-parent</artifactId>", "<java.version>17</java.version>",
        "<netty.version>" + systemProperty("netty.version") + "</netty.version>",
        "<artifactId>bolt-spring-boot-starter</artifactId>", "<artifactId>bolt-processor</artifactId>");
    assertThat(itPom).as("src/it/spring-boot-parent/pom.xml, with the versions filled in").contains(snippet);
  }

  @Test
  void theSpringBootParentSnippetLeavesTheCompilerVersionAndReleaseToTheParent() throws IOException {
    String snippet = springBootParentSnippet().replaceAll("(?s)<!--.*?-->", ""); // its comments name both
    // a version here would override the parent's (a downgrade, once the parent moves on)
    assertThat(snippet).doesNotContainPattern("<artifactId>maven-compiler-plugin</artifactId>\\s*<version>");
    // the parent sets maven.compiler.release from java.version
    assertThat(snippet).doesNotContain("<release>", "<maven.compiler.release>");
  }

  /** The first xml block after the section heading, without its fences. */
  private static String readmeSnippet() throws IOException {
    return xmlBlockAfter(SECTION);
  }

  /** The first xml block after the subsection for projects under Spring Boot's parent. */
  private static String springBootParentSnippet() throws IOException {
    return xmlBlockAfter(BOOT_PARENT);
  }

  private static String xmlBlockAfter(String heading) throws IOException {
    String readme = Files.readString(moduleDir().getParent().resolve("README.md"));
    int section = readme.indexOf(SECTION);
    assertThat(section).as("README.md has a section \"%s\"", SECTION).isNotNegative();
    int nextSection = readme.indexOf("\n## ", section + SECTION.length());
    int from = readme.indexOf(heading, section);
    assertThat(from).as("\"%s\" in README.md's section \"%s\"", heading, SECTION)
        .isNotNegative().isLessThan(nextSection);
    int open = readme.indexOf("```xml\n", from);
    assertThat(open).as("an xml block after \"%s\", in that section", heading).isPositive().isLessThan(nextSection);
    int start = open + "```xml\n".length();
    int end = readme.indexOf("\n```", start);
    return readme.substring(start, end + 1);
  }

  /** The IT project's pom with the versions the invoker fills in. */
  private static String itPom(String project) throws IOException {
    return Files.readString(moduleDir().resolve("src/it/" + project + "/pom.xml"))
        .replace("@project.version@", systemProperty("boltgen.version"))
        .replace("@netty.version@", systemProperty("netty.version"));
  }

  private static String systemProperty(String name) {
    String value = System.getProperty(name);
    assertThat(value).as("system property %s (set by bolt-it's pom)", name).isNotBlank();
    return value;
  }

  private static Path moduleDir() {
    Path dir = Path.of("").toAbsolutePath();
    return Files.exists(dir.resolve("src/it/readme-snippet")) ? dir : dir.resolve("bolt-it");
  }
}
