package io.boltgen.spring.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.NettyVersion;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample application in a JVM of its own ({@link SampleProcess}), configured as deployments configure it:
 * real environment variables, and the Netty that Spring Boot's dependency management picks when the
 * {@code netty.version} property is missing (real Netty jars of that version, copied by the build into
 * {@code target/netty-spring-boot}).
 */
class SampleProcessTest {

  /** Where the build copied the Netty jars Spring Boot 4.0.7 manages. */
  private static final Path BOOT_NETTY = Path.of("target", "netty-spring-boot");

  @TempDir
  Path tmp;

  @Test
  void environmentVariablesNameTheServiceOfAnEntryAndSetItsTargetAndAMethodsTimeout() throws Exception {
    Run run = run(classPath(), Map.of(
        "BOLTGEN_SERVER_HOST", "127.0.0.1",
        "BOLTGEN_SERVER_PORT", "0",
        "BOLTGEN_CLIENT_SERVICES_GREETER_SERVICE", "sample.Greeter",
        "BOLTGEN_CLIENT_SERVICES_GREETER_TARGET", "127.0.0.1:${local.boltgen.server.port}",
        "BOLTGEN_CLIENT_SERVICES_GREETER_METHODS_GREETSLOWLY_TIMEOUT", "300ms"));

    assertThat(run.exitStatus).as(run.output).isZero();
    assertThat(run.output).contains("CALL greet ok hello env")
        .as("greetSlowly's gate stays closed: its 300 ms timeout from the environment ends it, not the 5 s of"
            + " @BoltService")
        .contains("CALL greetSlowly failed TIMEOUT");
    assertThat(count(run.output, "boltgen server listening on")).as("listening is logged once").isEqualTo(1);
  }

  @Test
  void aMissingTargetFailsTheStartNamingThePropertyToSetInBothSpellings() throws Exception {
    Run run = run(classPath(), Map.of("BOLTGEN_SERVER_HOST", "127.0.0.1", "BOLTGEN_SERVER_PORT", "0",
        "BOLTGEN_CLIENT_SERVICES_GREETER_SERVICE", "sample.Greeter", "SAMPLE_EAGER_USER", "true"));

    assertThat(run.exitStatus).as(run.output).isEqualTo(1);
    assertThat(run.output)
        .contains("APPLICATION FAILED TO START")
        .contains("Bean 'greeterUser' needs a io.boltgen.spring.sample.Greeter, the client of boltgen service"
            + " sample.Greeter, and there is none: boltgen.client.services gives sample.Greeter no target.")
        .contains("Configured there: [greeter] (service sample.Greeter) without a target.")
        .contains("boltgen.client.services[sample.Greeter].target=host:port")
        .contains("BOLTGEN_CLIENT_SERVICES_GREETER_SERVICE=sample.Greeter and"
            + " BOLTGEN_CLIENT_SERVICES_GREETER_TARGET=host:port")
        .doesNotContain("Consider defining a bean");
  }

  @Test
  void onTheNettySpringBootManagesTheStartFailsWithTheFix() throws Exception {
    List<String> classPath = new ArrayList<>();
    for (String entry : classPath()) {
      if (!entry.contains(File.separator + "io" + File.separator + "netty" + File.separator)) {
        classPath.add(entry);
      }
    }
    List<String> bootNetty;
    try (Stream<Path> jars = Files.list(BOOT_NETTY)) {
      bootNetty = jars.map(p -> p.toAbsolutePath().toString()).sorted().toList();
    }
    assertThat(bootNetty).as("Netty jars in %s", BOOT_NETTY.toAbsolutePath()).hasSizeGreaterThan(5);
    classPath.addAll(bootNetty);

    Run run = run(classPath, Map.of("BOLTGEN_SERVER_HOST", "127.0.0.1", "BOLTGEN_SERVER_PORT", "0",
        "BOLTGEN_CLIENT_SERVICES_GREETER_SERVICE", "sample.Greeter",
        "BOLTGEN_CLIENT_SERVICES_GREETER_TARGET", "127.0.0.1:${local.boltgen.server.port}"));

    assertThat(run.exitStatus).as(run.output).isEqualTo(1);
    assertThat(run.output)
        .contains("APPLICATION FAILED TO START")
        .contains("boltgen's runtime needs Netty " + NettyVersion.required() + " or newer, but the class path has")
        .contains("netty-common 4.2.15.Final")
        .contains("Set the property in your pom: <properties><netty.version>" + NettyVersion.required()
            + "</netty.version></properties>")
        .doesNotContain("NoSuchMethodError")
        .doesNotContain("CALL ");
  }

  private static List<String> classPath() {
    return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
  }

  private static long count(String text, String what) {
    return text.lines().filter(line -> line.contains(what)).count();
  }

  record Run(int exitStatus, String output) {}

  /** Runs {@link SampleProcess} with {@code classPath} and these environment variables, at most 90 s. */
  private Run run(List<String> classPath, Map<String, String> environment) throws IOException, InterruptedException {
    Path output = Files.createTempFile(tmp, "sample", ".out");
    ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-cp", String.join(File.pathSeparator, classPath), SampleProcess.class.getName())
        .redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("BOLTGEN_") || k.startsWith("SPRING_"));
    builder.environment().putAll(environment);
    Process process = builder.start();
    try {
      if (!process.waitFor(90, TimeUnit.SECONDS)) {
        throw new AssertionError("the sample process did not finish in 90 s:\n" + Files.readString(output));
      }
      return new Run(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
