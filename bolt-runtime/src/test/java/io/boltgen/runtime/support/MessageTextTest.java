package io.boltgen.runtime.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Someone else's text in a message: quoted, control characters escaped, long text cut and measured. */
class MessageTextTest {

  @Test
  void quotesAndEscapesControlCharacters() {
    assertThat(MessageText.quote("demo.Inventory:1.0")).isEqualTo("\"demo.Inventory:1.0\"");
    assertThat(MessageText.quote("a\nb\u0000\u007f\u0085é😀\"")).isEqualTo("\"a\\u000ab\\u0000\\u007f\\u0085é😀\"\"");
    assertThat(MessageText.quote("")).isEqualTo("\"\"");
  }

  @Test
  void cutsLongTextSayingHowLongItWasNeverSplittingAPair() {
    assertThat(MessageText.quote("h".repeat(MessageText.MAX_QUOTED))).isEqualTo("\"" + "h".repeat(80) + "\"");
    assertThat(MessageText.quote("h".repeat(200))).isEqualTo("\"" + "h".repeat(80) + "…(200 characters)\"");
    String pairAtTheCut = "h".repeat(MessageText.MAX_QUOTED - 1) + "😀tail";
    assertThat(MessageText.quote(pairAtTheCut))
        .isEqualTo("\"" + "h".repeat(79) + "…(" + pairAtTheCut.length() + " characters)\"");
  }

  @Test
  void shortensPeerTextForALogLineEscapedAndCut() {
    String className = "x".repeat(32 * 1024);
    assertThat(MessageText.shorten(className))
        .isEqualTo("x".repeat(MessageText.MAX_CHARS) + "…(" + (32 * 1024 - MessageText.MAX_CHARS) + " more chars)");
    assertThat(MessageText.shorten("short")).isEqualTo("short");
    assertThat(MessageText.shorten("x".repeat(MessageText.MAX_CHARS))).isEqualTo("x".repeat(MessageText.MAX_CHARS));
    assertThat(MessageText.shorten(null)).isEqualTo("null");
    // a forged log line stays on its own line
    assertThat(MessageText.shorten("boom\r\n12:00 INFO all is well")).isEqualTo("boom\\u000d\\u000a12:00 INFO all is well");
    // a surrogate pair is never split
    String emoji = "a".repeat(MessageText.MAX_CHARS - 1) + "\uD83D\uDE00" + "tail";
    assertThat(MessageText.shorten(emoji)).isEqualTo("a".repeat(MessageText.MAX_CHARS - 1) + "…(6 more chars)");
    assertThat(MessageText.shorten("abcdef", 3)).isEqualTo("abc…(3 more chars)");
  }
}
