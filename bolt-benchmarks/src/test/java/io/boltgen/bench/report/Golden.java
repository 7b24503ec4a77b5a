package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The golden files under {@code src/test/resources/golden}: a report's output must equal its file to the character.
 * With {@code -Dgolden.write=true} a missing file is written from the output instead (once, when a test is added),
 * and the test fails saying so, to be reviewed and run again.
 */
public final class Golden {

  private Golden() {}

  /** Asserts that {@code actual} is the text of golden file {@code name}. */
  public static void check(String name, String actual) {
    Path source = Path.of(System.getProperty("basedir", "."), "src/test/resources/golden", name);
    if (Boolean.getBoolean("golden.write") && !Files.exists(source)) {
      try {
        Files.writeString(source, actual, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      throw new AssertionError("golden file " + source + " written: review it, then run the test again");
    }
    try (InputStream in = Golden.class.getResourceAsStream("/golden/" + name)) {
      assertThat(in).as("golden file " + name).isNotNull();
      assertThat(actual).as(name).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
