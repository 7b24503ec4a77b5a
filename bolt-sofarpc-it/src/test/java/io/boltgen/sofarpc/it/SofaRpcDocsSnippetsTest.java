package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java snippets of docs/sofarpc.md, as written: every code line of them is a line of this module's test
 * sources, where the interop tests run them against a real SOFARPC.
 */
class SofaRpcDocsSnippetsTest {

  @Test
  void everySnippetLineIsRunByTheInteropTests() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "sofarpc.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
    List<String> snippet = new ArrayList<>();
    while (m.find()) {
      for (String line : m.group(1).split("\n")) {
        String code = line.replaceAll("\\s*//.*$", "").strip();
        if (!code.isEmpty()) {
          snippet.add(code);
        }
      }
    }
    assertThat(snippet).isNotEmpty();
    List<String> sources = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src", "test", "java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          sources.add(line.replaceAll("\\s*//.*$", "").strip());
        }
      }
    }
    assertThat(sources).containsAll(snippet);
  }
}
