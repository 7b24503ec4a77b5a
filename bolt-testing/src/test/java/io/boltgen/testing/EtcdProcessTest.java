package io.boltgen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a test finds etcd, without running one (the registry and cluster modules' tests run real members): the
 * first executable {@code etcd} on the PATH, or a failure that says how to get one.
 */
class EtcdProcessTest {

  @Test
  void withoutEtcdOnThePathATestFailsSayingHowToGetOne(@TempDir Path empty) {
    assertThatThrownBy(() -> EtcdProcess.findEtcd(empty + File.pathSeparator + "/no/such/dir"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no `etcd` on the PATH (" + empty)
        .hasMessageContaining("scripts/test.sh")
        .hasMessageContaining("apt-get install etcd-server")
        .hasMessageContaining("scripts/ensure-etcd.sh");
  }

  @Test
  void theFirstExecutableEtcdOnThePathIsTheOneRun(@TempDir Path dir) throws Exception {
    Path notExecutable = Files.createDirectories(dir.resolve("a")).resolve("etcd");
    Files.writeString(notExecutable, "#!/bin/sh\n");
    Path first = Files.createDirectories(dir.resolve("b")).resolve("etcd");
    Files.writeString(first, "#!/bin/sh\n");
    Files.setPosixFilePermissions(first, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path second = Files.createDirectories(dir.resolve("c")).resolve("etcd");
    Files.copy(first, second);
    Files.setPosixFilePermissions(second, PosixFilePermissions.fromString("rwxr-xr-x"));

    String path = String.join(File.pathSeparator, "", dir.resolve("a").toString(), dir.resolve("b").toString(),
        dir.resolve("c").toString());
    assertThat(EtcdProcess.findEtcd(path)).isEqualTo(first);
  }
}
