package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/http.md's "Server streams" shell snippet, run exactly as it is written there: the example server on port
 * 8080, then curl calling its server-streaming {@code browse} with Connect's streaming protocol. It runs in a
 * temporary directory where {@code example-service/target/example-service.jar} is the freshly built jar.
 */
class HttpStreamSnippetTest {

  private static final String SECTION = "## Server streams";

  @Test
  void theServerStreamsSnippetRunsAsWritten(@TempDir Path dir) throws Exception {
    String snippet = Snippets.bashBlock("docs/http.md", SECTION);
    assertThat(snippet).contains("serve --port 8080", "application/connect+json", "Inventory/browse");
    assertThat(Snippets.isFree(8080)).as("port 8080 must be free: the snippet starts the example on it").isTrue();
    Path jar = Path.of(System.getProperty("example.jar"));
    assertThat(jar).as("the example's jar (built by the reactor before this module)").exists();
    Files.createDirectories(dir.resolve("example-service/target"));
    Files.createSymbolicLink(dir.resolve("example-service/target/example-service.jar"), jar.toAbsolutePath());
    Files.writeString(dir.resolve("snippet.sh"), snippet);
    Path output = dir.resolve("output.txt");
    Process bash = new ProcessBuilder("bash", "snippet.sh").directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(output.toFile()).start();
    boolean finished = bash.waitFor(60, TimeUnit.SECONDS);
    if (!finished) {
      bash.descendants().forEach(ProcessHandle::destroyForcibly);
      bash.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String printed = Files.readString(output, StandardCharsets.UTF_8);
    assertThat(finished).as("the snippet ends within 60 s; it printed:\n%s", printed).isTrue();
    assertThat(bash.exitValue()).as("its exit status; it printed:\n%s", printed).isZero();
    assertThat(printed).contains("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,")
        .contains("{\"value\":{\"sku\":{\"value\":\"pear\"}").contains("{\"value\":{\"sku\":{\"value\":\"plum\"}")
        .endsWith(".{}");
    assertThat(printed.indexOf("apple")).isLessThan(printed.indexOf("pear"));
    assertThat(printed.indexOf("pear")).isLessThan(printed.indexOf("plum"));
    bash.descendants().forEach(ProcessHandle::destroyForcibly); // nothing should be left; never leak one
  }
}
