package io.boltgen.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The golden files under {@code src/test/resources/golden}: a report's output must equal its file to the character.
 * With {@code -Dgolden.write=true} a missing file is written from the output instead (once, when a test is added),
 * and the test fails saying so, to be reviewed and run again.
 */
public final class Golden {

  private Golden() {}

  /** The machine every golden report was measured on, {@code without} some of its entries. */
  public static Map<String, String> machine(String... without) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("CPU", "AMD EPYC");
    m.put("cores", "2 available to the JVM (0-1 online)");
    m.put("memory", "23.5 GiB");
    m.put("kernel", "Linux 6.18.44-fc-v857");
    m.put("JDK", "OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1 (Debian)");
    m.put("load average at start", "2.81 4.99 4.57");
    List.of(without).forEach(m::remove);
    return m;
  }

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
