package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application on the Netty that Spring Boot's dependency management chooses, older than the runtime's:
 * {@link NettyVersionProbe} in a child JVM whose class path is what an application's would be (the runtime's
 * classes and its dependencies) with real Netty jars of one version, copied by the build into
 * {@code target/netty-versions/<version>}: the older one, and the one the runtime was built with. Only the
 * Netty jars differ between the two runs.
 */
class NettyVersionProcessTest {

  private static final Path VERSIONS = Path.of("target", "netty-versions");
  private static final Pattern NETTY_CLASS_LOADED = Pattern.compile("\\[class,load\\] (io\\.netty\\.\\S+) source:");

  @TempDir
  Path tmp;

  @Test
  void onAnOlderNettyTheFirstBuildFailsWithTheFixBeforeTouchingNetty() throws Exception {
    String older = olderVersion();
    Run run = probe(older);

    assertThat(run.exitStatus).as("exit status; stderr:\n%s", run.stderr).isNotZero();
    assertThat(run.stderr)
        .contains("io.boltgen.runtime.NettyVersion$UnsupportedException: boltgen's runtime needs Netty "
            + NettyVersion.required() + " or newer, but the class path has netty-buffer " + older
            + ", netty-codec-base " + older + ", netty-common " + older + ", netty-handler " + older
            + ", netty-resolver " + older + ", netty-transport " + older + ", netty-transport-classes-epoll "
            + older + ", netty-transport-native-epoll " + older + ", netty-transport-native-unix-common " + older
            + " (a dependency manager, such as Spring Boot's, chose an older Netty). Set <netty.version>"
            + NettyVersion.required() + "</netty.version> in your pom (Spring Boot parent), or import"
            + " io.netty:netty-bom:" + NettyVersion.required() + " before other BOMs; check with"
            + " mvn dependency:tree -Dincludes=io.netty")
        .contains("at io.boltgen.runtime.BoltClient$Builder.build")
        .doesNotContain("NoSuchMethodError")
        .doesNotContain("NoClassDefFoundError");
    assertThat(run.stdout).doesNotContain("ECHOED");
    assertThat(run.nettyClassesLoaded)
        .as("Netty classes loaded before the check refused the older Netty: only the one it reads versions with")
        .containsExactly("io.netty.util.Version");
  }

  @Test
  void onTheNettyTheRuntimeWasBuiltWithTheSameApplicationAnswers() throws Exception {
    Run run = probe(NettyVersion.required());

    assertThat(run.exitStatus).as("exit status; stderr:\n%s", run.stderr).isZero();
    assertThat(run.stdout).contains("ECHOED probe");
    assertThat(run.stderr).doesNotContain("Exception").doesNotContain("could not check the Netty version");
  }

  /** The other Netty the build copied: the one older than the runtime's. */
  private static String olderVersion() throws IOException {
    List<String> versions;
    try (Stream<Path> dirs = Files.list(VERSIONS)) {
      versions = dirs.filter(Files::isDirectory).map(d -> d.getFileName().toString()).sorted()
          .collect(Collectors.toList());
    }
    assertThat(versions).as("Netty versions the build copied into %s", VERSIONS.toAbsolutePath())
        .hasSize(2).contains(NettyVersion.required());
    versions.remove(NettyVersion.required());
    assertThat(NettyReleases.isOlder(versions.get(0), NettyVersion.required())).isTrue();
    return versions.get(0);
  }

  private Run probe(String nettyVersion) throws Exception {
    List<String> classPath = new ArrayList<>();
    classPath.add(location(NettyVersion.class)); // target/classes
    classPath.add(location(NettyVersionProbe.class)); // target/test-classes
    classPath.add(Files.readString(VERSIONS.resolve("runtime-without-netty.classpath")).trim());
    try (Stream<Path> jars = Files.list(VERSIONS.resolve(nettyVersion))) {
      jars.map(Path::toString).filter(j -> j.endsWith(".jar")).sorted().forEach(classPath::add);
    }
    assertThat(String.join(File.pathSeparator, classPath)).as("the child's class path holds one Netty")
        .containsPattern("netty-common-" + Pattern.quote(nettyVersion) + "\\.jar")
        .doesNotContainPattern("netty-common-(?!" + Pattern.quote(nettyVersion) + ")");
    Path stdout = tmp.resolve(nettyVersion + ".out");
    Path stderr = tmp.resolve(nettyVersion + ".err");
    Path classes = tmp.resolve(nettyVersion + ".classes");
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:file=" + classes, "-cp", String.join(File.pathSeparator, classPath),
        NettyVersionProbe.class.getName())
        .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    try {
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the child exited within 60 s").isTrue();
      Set<String> netty = new TreeSet<>();
      Matcher loaded = NETTY_CLASS_LOADED.matcher(Files.readString(classes, StandardCharsets.UTF_8));
      while (loaded.find()) {
        netty.add(loaded.group(1));
      }
      return new Run(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
          Files.readString(stderr, StandardCharsets.UTF_8), netty);
    } finally {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  private static String location(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }

  private record Run(int exitStatus, String stdout, String stderr, Set<String> nettyClassesLoaded) {}
}
