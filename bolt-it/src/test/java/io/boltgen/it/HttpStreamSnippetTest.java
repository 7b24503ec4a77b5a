package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
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
    Snippets.link(dir, "example-service/target/example-service.jar", "example.jar");
    Snippets.Run run = Snippets.run(dir, snippet, Duration.ofMinutes(1));
    String printed = run.printed();
    assertThat(run.finished()).as("the snippet ends within a minute; it printed:\n%s", printed).isTrue();
    assertThat(run.exitValue()).as("its exit status; it printed:\n%s", printed).isZero();
    assertThat(printed).contains("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,")
        .contains("{\"value\":{\"sku\":{\"value\":\"pear\"}").contains("{\"value\":{\"sku\":{\"value\":\"plum\"}")
        .endsWith(".{}");
    assertThat(printed.indexOf("apple")).isLessThan(printed.indexOf("pear"));
    assertThat(printed.indexOf("pear")).isLessThan(printed.indexOf("plum"));
  }
}
