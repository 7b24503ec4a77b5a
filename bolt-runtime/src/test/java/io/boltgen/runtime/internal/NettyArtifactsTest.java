package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** What the runtime reads Netty's version information with, on real jars the build copied. */
class NettyArtifactsTest {

  @Test
  void everyNettyJarALoaderSeesWithItsVersion() throws IOException {
    URL[] jars;
    try (Stream<Path> files = Files.list(Path.of("target", "netty-versions", "4.2.15.Final"))) {
      jars = files.filter(f -> f.toString().endsWith(".jar")).map(NettyArtifactsTest::url).toArray(URL[]::new);
    }
    try (URLClassLoader loader = new URLClassLoader(jars, null)) {
      assertThat(NettyArtifacts.versions(loader))
          .containsEntry("netty-common", "4.2.15.Final")
          .containsEntry("netty-transport", "4.2.15.Final")
          .containsEntry("netty-transport-native-epoll", "4.2.15.Final")
          .hasSize(12); // the nine of Bolt, and HTTP's codec-http, codec-http2 and codec-compression
    }
  }

  @Test
  void noneWhereThereIsNoVersionInformation() throws IOException {
    try (URLClassLoader loader = new URLClassLoader(new URL[0], null)) {
      assertThat(NettyArtifacts.versions(loader)).isEmpty();
    }
  }

  private static URL url(Path file) {
    try {
      return file.toUri().toURL();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
