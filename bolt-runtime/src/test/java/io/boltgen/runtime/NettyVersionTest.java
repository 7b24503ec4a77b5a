package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.netty.util.Version;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The version the runtime requires, and what the check says, on Netty's version information read by
 * {@link Version#identify(ClassLoader)} from real Netty jars (those the build copies into
 * {@code target/netty-versions/<version>}).
 */
class NettyVersionTest {

  private static final Path VERSIONS = Path.of("target", "netty-versions");
  private static final String OLDER = "4.2.15.Final";

  @Test
  void theRequiredVersionIsTheOneTheBuildUses() {
    // this test's class path has the Netty of the build (netty.version in the root pom)
    assertThat(NettyVersion.required()).isEqualTo(Version.identify().get("netty-common").artifactVersion());
    assertThat(NettyReleases.parse(NettyVersion.required())).isNotNull();
  }

  @Test
  void theNettyOfTheBuildPassesEveryTime() {
    assertThatCode(NettyVersion::requireSupported).doesNotThrowAnyException();
    assertThatCode(NettyVersion::requireSupported).doesNotThrowAnyException();
    assertThat(Runtimes.PROVIDER.nettyVersions()).containsEntry("netty-common", NettyVersion.required())
        .containsEntry("netty-transport", NettyVersion.required());
  }

  @Test
  void anOlderNettyIsNamedArtifactByArtifactWithTheFix() throws IOException {
    Map<String, String> found = identify(jars(OLDER));
    NettyVersion.UnsupportedException e = catchThrowableOfType(NettyVersion.UnsupportedException.class,
        () -> NettyVersion.check("4.2.18.Final", found));

    assertThat(e.getMessage()).isEqualTo("boltgen's runtime needs Netty 4.2.18.Final or newer, but the class"
        + " path has netty-buffer 4.2.15.Final, netty-codec-base 4.2.15.Final, netty-common 4.2.15.Final,"
        + " netty-handler 4.2.15.Final, netty-resolver 4.2.15.Final, netty-transport 4.2.15.Final,"
        + " netty-transport-classes-epoll 4.2.15.Final, netty-transport-native-epoll 4.2.15.Final,"
        + " netty-transport-native-unix-common 4.2.15.Final (a dependency manager, such as Spring Boot's, chose"
        + " an older Netty). Set <netty.version>4.2.18.Final</netty.version> in your pom (Spring Boot parent), or"
        + " import io.netty:netty-bom:4.2.18.Final before other BOMs; check with"
        + " mvn dependency:tree -Dincludes=io.netty");
    assertThat(e).isInstanceOf(IllegalStateException.class);
    assertThat(e.required()).isEqualTo("4.2.18.Final");
    assertThat(e.found()).hasSize(9).containsEntry("netty-common", OLDER).containsEntry("netty-transport", OLDER);
  }

  @Test
  void artifactsThatDisagreeFailOnTheOlderOnesAndNameTheOthers() throws IOException {
    // netty-common and netty-buffer of the build, the rest older: what a half-applied override leaves
    List<URL> jars = Stream.concat(
            jars(NettyVersion.required()).stream().filter(u -> u.getPath().matches(".*/netty-(common|buffer)-[^/]*")),
            jars(OLDER).stream().filter(u -> !u.getPath().matches(".*/netty-(common|buffer)-[^/]*")))
        .collect(Collectors.toList());
    NettyVersion.UnsupportedException e = catchThrowableOfType(NettyVersion.UnsupportedException.class,
        () -> NettyVersion.check(NettyVersion.required(), identify(jars)));

    String required = NettyVersion.required();
    assertThat(e.getMessage())
        .contains("but the class path has netty-codec-base 4.2.15.Final, netty-handler 4.2.15.Final,")
        .contains(", netty-transport-native-unix-common 4.2.15.Final, mixed with netty-buffer " + required
            + ", netty-common " + required + " (a dependency manager")
        .contains("Set <netty.version>" + required + "</netty.version>");
    assertThat(e.found()).containsEntry("netty-common", required).containsEntry("netty-handler", OLDER);
  }

  @Test
  void noVersionInformationPassesWithOneWarning() {
    PrintStream original = System.err; // slf4j-simple, this module's test binding, writes there
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      // a repackaged Netty without META-INF/io.netty.versions.properties: an empty class loader's view
      assertThatCode(() -> NettyVersion.check("4.2.18.Final", identify(List.of()))).doesNotThrowAnyException();
    } finally {
      System.setErr(original);
    }
    List<String> lines = Arrays.stream(captured.toString(StandardCharsets.UTF_8).split("\n"))
        .filter(l -> l.contains("NettyVersion")).collect(Collectors.toList());
    assertThat(lines).singleElement().asString()
        .contains("WARN io.boltgen.runtime.NettyVersion - could not check the Netty version:")
        .endsWith("boltgen's runtime needs Netty 4.2.18.Final or newer");
  }

  /** What {@link Version#identify(ClassLoader)} finds in {@code jars} alone: artifact id to version. */
  static Map<String, String> identify(List<URL> jars) throws IOException {
    try (URLClassLoader loader = new URLClassLoader(jars.toArray(URL[]::new), null)) {
      Map<String, String> found = new TreeMap<>();
      Version.identify(loader).forEach((artifact, version) -> found.put(artifact, version.artifactVersion()));
      return found;
    }
  }

  /** The Netty jars of {@code version} the build copied. */
  static List<URL> jars(String version) throws IOException {
    try (Stream<Path> jars = Files.list(VERSIONS.resolve(version))) {
      return jars.filter(j -> j.toString().endsWith(".jar")).sorted().map(j -> {
        try {
          return j.toUri().toURL();
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
      }).collect(Collectors.toList());
    }
  }
}
