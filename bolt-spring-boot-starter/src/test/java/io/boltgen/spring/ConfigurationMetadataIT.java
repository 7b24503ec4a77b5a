package io.boltgen.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar carries what IDEs and Spring Boot read: property metadata, the auto-configuration list and the
 * failure analyzers.
 */
class ConfigurationMetadataIT {

  private static String entry(JarFile jar, String name) throws IOException {
    ZipEntry entry = jar.getEntry(name);
    assertThat(entry).as(name + " in " + jar.getName()).isNotNull();
    try (InputStream in = jar.getInputStream(entry)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theJarHasPropertyMetadataAndTheAutoConfigurations() throws IOException {
    Path path = Path.of(System.getProperty("starter.jar"));
    assertThat(Files.isRegularFile(path)).as(path.toString()).isTrue();
    try (JarFile jar = new JarFile(path.toFile())) {
      String metadata = entry(jar, "META-INF/spring-configuration-metadata.json");
      assertThat(metadata).contains("\"boltgen.client.services\"", "\"boltgen.client.protocol\"",
          "\"boltgen.client.connect-timeout\"", "\"boltgen.server.port\"", "\"boltgen.server.host\"",
          "\"boltgen.server.shutdown-timeout\"", "\"boltgen.server.services\"", "\"management.health.bolt.enabled\"");
      assertThat(entry(jar, "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports"))
          .contains(BoltClientAutoConfiguration.class.getName(), BoltServerAutoConfiguration.class.getName(),
              BoltHealthAutoConfiguration.class.getName());
      assertThat(entry(jar, "META-INF/spring.factories")).contains(
          BoltClientConfigurationFailureAnalyzer.class.getName(), MissingBoltClientFailureAnalyzer.class.getName(),
          UnsupportedNettyFailureAnalyzer.class.getName());
    }
  }
}
