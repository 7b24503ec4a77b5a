package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The table writer: Markdown in both rule styles, console lines by a format, and one alignment per column. */
class TableTest {

  @Test
  void markdownConsoleAndAlignment() {
    Table t = new Table("lr", "name", "calls/s").row("a", 12).row("bb", 3.5);
    assertThat(t.isEmpty()).isFalse();
    assertThat(t.markdown()).isEqualTo("| name | calls/s |\n|---|--:|\n| a | 12 |\n| bb | 3.5 |\n");
    assertThat(t.console("  %-4s %8s%n")).isEqualTo("  name  calls/s\n  a          12\n  bb        3.5\n");
    assertThat(t.lines("%s=%s;")).isEqualTo("a=12;bb=3.5;");
    assertThat(new Table("l", "x").spaced().markdown()).isEqualTo("| x |\n| --- |\n");
    assertThat(new Table("l", "x").isEmpty()).isTrue();
    assertThatThrownBy(() -> new Table("lr", "one")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Table("lx", "a", "b")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Table("lr", "a", "b").row("only one")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 cells for the 2 columns");
    assertThatThrownBy(() -> t.console("%s%n")).as("a column the console would drop")
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("formats 1 of the 2 columns");
    assertThat(t.lines("%s %% %s%n")).isEqualTo("a % 12\nbb % 3.5\n");
  }

  @Test
  void templatesAreFilledByKey() {
    assertThat(Markdown.fill("load-warmup.md", "first", "sync-32/100B", "warm", "0.97×"))
        .startsWith("Each client measured its first case (sync-32/100B) again").contains("at 0.97× or more");
    assertThatThrownBy(() -> Markdown.fill("load-warmup.md", "first", "x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("${warm}");
    assertThat(Markdown.fill("load-warmup.md", "first", "-Dx=$HOME\\y ${warm}", "warm", "$1"))
        .as("values are written as they are, never read as patterns or placeholders")
        .contains("(-Dx=$HOME\\y ${warm})").contains("at $1 or more");
    assertThatThrownBy(() -> Markdown.fill("load-warmup.md", "first", "x", "warm", "y", "gone", "z"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no place for [gone]");
    assertThatThrownBy(() -> Markdown.fill("load-warmup.md", "first")).isInstanceOf(IllegalArgumentException.class);
  }
}
