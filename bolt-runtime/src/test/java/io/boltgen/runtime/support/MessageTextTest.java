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
}
