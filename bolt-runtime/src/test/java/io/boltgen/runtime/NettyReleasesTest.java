package io.boltgen.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The order of Netty versions, and which artifacts and versions the check refuses. */
class NettyReleasesTest {

  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({
      "4.2.15.Final, 4.2.18.Final",
      "4.2.9.Final, 4.2.18.Final", // numbers, not text
      "4.1.130.Final, 4.2.0.Final",
      "3.10.6.Final, 4.2.18.Final",
      "4.2.18.Alpha1, 4.2.18.Alpha2",
      "4.2.18.Alpha2, 4.2.18.Beta1",
      "4.2.18.Beta1, 4.2.18.CR1",
      "4.2.18.CR1, 4.2.18.CR2",
      "4.2.18.RC1, 4.2.18.Final",
      "4.2.0.CR1, 4.2.0.Final",
      "4.2.18.Final-SNAPSHOT, 4.2.18.Final", // a snapshot comes before its release
      "4.2.18-SNAPSHOT, 4.2.18.Final",
      "4.2.17.Final, 4.2.18.Final-SNAPSHOT",
      "4.2, 4.2.1.Final",
  })
  void older(String older, String newer) {
    assertThat(NettyReleases.isOlder(older, newer)).isTrue();
    assertThat(NettyReleases.isOlder(newer, older)).isFalse();
    assertThat(NettyReleases.parse(older).compareTo(NettyReleases.parse(newer))).isNegative();
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
      "4.2.18.Final, 4.2.18.Final",
      "4.2.18, 4.2.18.Final",
      "4.2.18.0.Final, 4.2.18.Final",
      "4.2.18.final, 4.2.18.Final",
      "4.2.18.Final-redhat-00001, 4.2.18.Final", // a vendor's rebuild is its release
      "4.2.18.GA, 4.2.18.Final",
  })
  void sameRelease(String a, String b) {
    assertThat(NettyReleases.isOlder(a, b)).isFalse();
    assertThat(NettyReleases.isOlder(b, a)).isFalse();
    assertThat(NettyReleases.parse(a).compareTo(NettyReleases.parse(b))).isZero();
  }

  @Test
  void aStringThatIsNoVersionIsNotJudged() {
    assertThat(NettyReleases.parse("")).isNull();
    assertThat(NettyReleases.parse("Final")).isNull();
    assertThat(NettyReleases.parse("${netty.version}")).isNull();
    assertThat(NettyReleases.isOlder("unknown", "4.2.18.Final")).isFalse();
  }

  @Test
  void theRequiredVersionAndNewerPass() {
    assertThat(NettyReleases.check("4.2.18.Final", Map.of("netty-common", "4.2.18.Final",
        "netty-transport", "4.2.18.Final"))).isTrue();
    assertThat(NettyReleases.check("4.2.18.Final", Map.of("netty-common", "4.2.19.Final",
        "netty-transport", "4.3.0.Final", "netty-handler", "4.2.18.Final"))).isTrue();
  }

  @Test
  void anyOlderArtifactTheRuntimeUsesFails() {
    assertThatThrownBy(() -> NettyReleases.check("4.2.18.Final", Map.of("netty-common", "4.2.18.Final",
        "netty-transport-native-epoll", "4.2.15.Final", "netty-codec-http", "4.2.18.Final")))
        .isInstanceOfSatisfying(NettyVersion.UnsupportedException.class, e -> {
          assertThat(e.required()).isEqualTo("4.2.18.Final");
          assertThat(e.found()).as("the artifacts the runtime uses, not the others")
              .containsExactly(Map.entry("netty-common", "4.2.18.Final"),
                  Map.entry("netty-transport-native-epoll", "4.2.15.Final"));
        });
  }

  @Test
  void artifactsTheRuntimeDoesNotUseAreNotJudged() {
    // tcnative has versions of its own; an HTTP codec from another library is that library's business
    assertThat(NettyReleases.check("4.2.18.Final", Map.of("netty-common", "4.2.18.Final",
        "netty-tcnative-boringssl-static", "2.0.84.Final", "netty-codec-http", "4.1.100.Final"))).isTrue();
  }

  @Test
  void noVersionInformationCannotBeChecked() {
    assertThat(NettyReleases.check("4.2.18.Final", Map.of())).isFalse();
    assertThat(NettyReleases.check("4.2.18.Final", Map.of("netty-tcnative-classes", "2.0.84.Final"))).isFalse();
    assertThat(NettyReleases.check("4.2.18.Final", Map.of("netty-common", "unknown"))).isFalse();
  }
}
