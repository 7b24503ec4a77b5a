package io.boltgen.runtime.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Text a peer controls is cut before it reaches a log line. */
class LogTextTest {

  @Test
  void longPeerTextIsCut() {
    String className = "x".repeat(32 * 1024);
    String shortened = LogText.shorten(className);
    assertThat(shortened).startsWith("x".repeat(LogText.MAX_CHARS)).endsWith("…(32568 more chars)");
    assertThat(LogText.shorten("short")).isEqualTo("short");
    assertThat(LogText.shorten(null)).isEqualTo("null");
    // a surrogate pair is never split
    String emoji = "a".repeat(LogText.MAX_CHARS - 1) + "\uD83D\uDE00" + "tail";
    assertThat(LogText.shorten(emoji)).startsWith("a".repeat(LogText.MAX_CHARS - 1) + "…");
  }
}
