package io.boltgen.registry.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module's shape: small main files, one public type, nothing imported beyond the JDK, the cluster SPI,
 * the runtime's support helpers, bolt-json, jackson-core and SLF4J, and the bounds in docs/registry-etcd.md
 * equal to the code's.
 */
class ModuleShapeTest {

  private static final Path MAIN = Path.of("src/main/java/io/boltgen/registry/etcd");

  private static List<Path> mainFiles() throws IOException {
    try (Stream<Path> files = Files.list(MAIN)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void mainSourceFilesStayUnder500Lines() throws IOException {
    for (Path file : mainFiles()) {
      assertThat(Files.readAllLines(file)).as("lines of %s", file).hasSizeLessThanOrEqualTo(500);
    }
  }

  @Test
  void theOnlyPublicTypeIsTheRegistry() throws IOException {
    Pattern topLevelPublic = Pattern.compile("(?m)^public (final |abstract )?(class|interface|enum|record) (\\w+)");
    List<String> found = new java.util.ArrayList<>();
    for (Path file : mainFiles()) {
      Matcher m = topLevelPublic.matcher(Files.readString(file));
      while (m.find()) {
        found.add(m.group(3));
      }
    }
    assertThat(found).containsExactly("EtcdRegistry");
  }

  @Test
  void mainCodeUsesOnlyTheJdkTheClusterSpiTheRuntimesSupportJacksonCoreSlf4jAndCompileTimeAnnotations() throws IOException {
    Pattern imports = Pattern.compile("(?m)^import (static )?([\\w.]+)");
    for (Path file : mainFiles()) {
      Matcher m = imports.matcher(Files.readString(file));
      while (m.find()) {
        assertThat(m.group(2)).as("an import of %s", file).matches("(java\\.|io\\.boltgen\\.runtime\\.cluster\\."
            + "|io\\.boltgen\\.runtime\\.support\\.|io\\.boltgen\\.json\\.|tools\\.jackson\\.core\\.|org\\.slf4j\\."
            // @GuardedBy, which only javac reads (a provided dependency)
            + "|com\\.google\\.errorprone\\.annotations\\.).*");
      }
    }
  }

  @Test
  void theDocsStateTheBoundsTheCodeHas() throws IOException {
    String docs = Files.readString(Path.of("../docs/registry-etcd.md"));
    assertThat(EtcdHttp.MAX_REPLY_BYTES).isEqualTo(16 * 1024 * 1024);
    assertThat(docs).contains("16 MiB");
    assertThat(EtcdWatch.MAX_INSTANCES).isEqualTo(10_000);
    assertThat(docs).contains("10,000 instances");
    assertThat(Layout.MAX_VALUE_BYTES).isEqualTo(64 * 1024);
    assertThat(docs).contains("64 KiB");
    assertThat(Layout.MAX_SERVICE_NAME).isEqualTo(512);
    assertThat(docs).contains("512 characters");
    assertThat(EtcdWatch.FIRST_BACKOFF_MILLIS).isEqualTo(100);
    assertThat(EtcdWatch.MAX_BACKOFF_MILLIS).isEqualTo(2_000);
    assertThat(docs).contains("100 ms").contains("2 s");
    assertThat(EtcdRegistry.PROBE_INTERVAL.toSeconds()).isEqualTo(3);
    assertThat(docs).contains("every 3 s");
    assertThat(EtcdRegistry.LOG_LINES_PER_MINUTE).isEqualTo(5);
    assertThat(docs).contains("5 lines a minute");
    assertThat(EtcdJson.MAX_DEPTH).isEqualTo(64);
    assertThat(docs).contains("64 levels in a gateway reply, 16 in an instance value");
    assertThat(io.boltgen.json.StrictJson.MAX_NUMBER_LENGTH).isEqualTo(1_000);
    assertThat(docs).contains("| a number in JSON | 1,000 characters |");
    assertThat(docs).contains("`" + EtcdRegistry.DEFAULT_PREFIX + "`");
    assertThat(docs).contains(new String(io.boltgen.json.InstanceRecord.write(
        io.boltgen.runtime.cluster.ServiceInstance.of(new java.net.InetSocketAddress("10.0.0.7", 12200))
            .withWeight(250).withVersion("1.4.2").withZone("zone-b").withMetadata(java.util.Map.of("rack", "r7"))),
        java.nio.charset.StandardCharsets.UTF_8));
  }
}
