package io.boltgen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child JVM through its whole life: ready, frozen and continued, stopped gracefully, or closed while frozen. */
class ReadyProcessTest {

  private static final Duration WAIT = Duration.ofSeconds(10);

  /** The process's state letter in {@code /proc/<pid>/stat}: {@code T} while stopped by a signal. */
  private static char state(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.charAt(stat.lastIndexOf(')') + 2);
  }

  @Test
  void aServerIsReadyWithItsPortCanBeFrozenAndContinuedAndStopsGracefully() throws Exception {
    try (ReadyProcess child = ReadyProcess.start(ReadyProcess.java(ReadyChild.class.getName(), "4242"))) {
      assertThat(child.port()).isEqualTo(4242);
      assertThat(child.isAlive()).isTrue();
      await().atMost(WAIT).until(() -> child.log().contains("started"));

      child.signal("STOP");
      await().atMost(WAIT).until(() -> state(child.pid()) == 'T');
      child.signal("CONT");
      await().atMost(WAIT).until(() -> state(child.pid()) != 'T');

      assertThat(child.stop()).as("exits on SIGTERM within the grace time").isTrue();
      assertThat(child.isAlive()).isFalse();
      assertThat(child.log()).as("its shutdown hook ran").contains("stopping");
      assertThatThrownBy(() -> child.signal("CONT")).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("kill -CONT " + child.pid());
    }
  }

  @Test
  void closingAFrozenServerContinuesItSoThatItStopsGracefullyAndDeletesItsLog() throws Exception {
    ReadyProcess child = ReadyProcess.start(ReadyProcess.java(ReadyChild.class.getName(), "4243"));
    ProcessHandle handle = ProcessHandle.of(child.pid()).orElseThrow();
    child.signal("STOP");
    await().atMost(WAIT).until(() -> state(child.pid()) == 'T');

    child.close();

    assertThat(handle.isAlive()).isFalse();
    assertThat(child.isAlive()).isFalse();
    assertThatThrownBy(child::log).isInstanceOf(IOException.class);
    child.close(); // idempotent
  }

  @Test
  void aChildLeftRunningIsContinuedAndStoppedWhenTheJvmThatStartedItStops() throws Exception {
    try (ReadyProcess child = ReadyProcess.start(ReadyProcess.java(ReadyChild.class.getName(), "4244",
        "with-grandchild"))) {
      long grandchild = Long.parseLong(child.log().lines().filter(l -> l.startsWith("grandchild ")).findFirst()
          .orElseThrow().substring("grandchild ".length()).trim());
      ProcessHandle handle = ProcessHandle.of(grandchild).orElseThrow();
      assertThat(state(grandchild)).as("frozen: it acts on SIGTERM only once continued").isEqualTo('T');

      assertThat(child.stop()).as("the child exits on SIGTERM, its shutdown hooks run").isTrue();

      await().atMost(WAIT).until(() -> !handle.isAlive());
    }
  }

  @Test
  void anEtcdLeftRunningIsStoppedAndItsLogKeptWhenTheJvmThatStartedItStops(@TempDir Path dir) throws Exception {
    Path kept = dir.resolve("etcd.log");
    try (ReadyProcess child = ReadyProcess.start(ReadyProcess.java(ReadyChild.class.getName(), "4245", "with-etcd",
        kept.toString()))) {
      long etcd = Long.parseLong(child.log().lines().filter(l -> l.startsWith("etcd ")).findFirst().orElseThrow()
          .substring("etcd ".length()).trim());
      ProcessHandle handle = ProcessHandle.of(etcd).orElseThrow();

      assertThat(child.stop()).as("the child exits on SIGTERM, its shutdown hooks run").isTrue();

      await().atMost(WAIT).until(() -> !handle.isAlive());
      assertThat(kept).as("etcd's log, kept as its owner asked").isRegularFile();
    }
  }

  @Test
  void aProcessThatExitsBeforeItIsReadyFailsTheStartWithItsLog() {
    assertThatThrownBy(() -> ReadyProcess.start(ReadyProcess.java(ReadyChild.class.getName())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the process exited, or was not ready within")
        .hasMessageContaining("no port given");
  }
}
