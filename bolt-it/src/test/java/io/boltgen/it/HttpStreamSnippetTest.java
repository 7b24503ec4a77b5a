package io.boltgen.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/http.md's "Server streams" and "Streams of requests" shell snippets, run exactly as they are written there: the
 * example server on port 8080, then curl calling its server-streaming {@code browse}, its client-streaming
 * {@code tally} (HTTP/1.1) and its bidirectional {@code lookup} (HTTP/2) with Connect's streaming protocol. Each runs
 * in a temporary directory where {@code example-service/target/example-service.jar} is the freshly built jar.
 */
class HttpStreamSnippetTest {

  private static final String SECTION = "## Server streams";

  /** Runs the section's snippet, which starts the example on port 8080 and says {@code says}: what it printed. */
  private static String run(Path dir, String section, String... says) throws Exception {
    String snippet = Snippets.bashBlock("docs/http.md", section);
    assertThat(snippet).contains("serve --port 8080").contains(says);
    assertThat(Snippets.isFree(8080)).as("port 8080 must be free: the snippet starts the example on it").isTrue();
    Snippets.link(dir, "example-service/target/example-service.jar", "example.jar");
    Snippets.Run run = Snippets.run(dir, snippet, Duration.ofMinutes(1));
    String printed = run.printed();
    assertThat(run.finished()).as("the snippet ends within a minute; it printed:\n%s", printed).isTrue();
    assertThat(run.exitValue()).as("its exit status; it printed:\n%s", printed).isZero();
    return printed;
  }

  @Test
  void theServerStreamsSnippetRunsAsWritten(@TempDir Path dir) throws Exception {
    String printed = run(dir, SECTION, "application/connect+json", "Inventory/browse");
    assertThat(printed).contains("{\"value\":{\"sku\":{\"value\":\"apple\"},\"available\":12,")
        .contains("{\"value\":{\"sku\":{\"value\":\"pear\"}").contains("{\"value\":{\"sku\":{\"value\":\"plum\"}")
        .endsWith(".{}");
    assertThat(printed.indexOf("apple")).isLessThan(printed.indexOf("pear"));
    assertThat(printed.indexOf("pear")).isLessThan(printed.indexOf("plum"));
  }

  @Test
  void theStreamsOfRequestsSnippetRunsAsWritten(@TempDir Path dir) throws Exception {
    String printed = run(dir, "## Streams of requests", "Inventory/tally", "--http2-prior-knowledge",
        "Inventory/lookup");
    String[] lines = printed.strip().split("\n");
    assertThat(lines).as("one line per call; it printed:\n%s", printed).hasSize(2);
    assertThat(lines[0]).contains("{\"value\":{\"stocks\":[{\"sku\":{\"value\":\"apple\"},\"available\":12,")
        .contains("{\"sku\":{\"value\":\"pear\"},\"available\":3,").contains("\"totalUnits\":\"15\"}}")
        .endsWith(".{}");
    assertThat(lines[1]).contains("{\"value\":{\"sku\":{\"value\":\"pear\"},\"available\":3,")
        .contains("{\"value\":{\"sku\":{\"value\":\"fig\"},\"level\":\"STOCK_LEVEL_UNKNOWN\"}}").endsWith(".{}");
    assertThat(lines[1].indexOf("pear")).isLessThan(lines[1].indexOf("fig"));
  }
}
