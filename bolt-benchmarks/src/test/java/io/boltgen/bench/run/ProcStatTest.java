package io.boltgen.bench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.boltgen.bench.scenario.QuietPolicy;
import org.junit.jupiter.api.Test;

/** The pure parts of the quiet-window measurement: /proc parsing, other processes' CPU, repeats of noisy windows. */
class ProcStatTest {

  private static final String PROC_STAT = """
      cpu  10132153 290696 3084719 46828483 16683 0 25195 175 0 0
      cpu0 1393280 32966 572056 13343292 6130 0 17875 100 0 0
      cpu1 1335398 29967 560591 13346002 3289 0 4530 75 0 0
      intr 1462898 0 0 0
      ctxt 3062883
      """;

  @Test
  void busyTicksAreUserNiceSystemIrqSoftirqStealOfTheAggregateLine() {
    assertThat(ProcStat.busyTicks(PROC_STAT)).isEqualTo(10132153L + 290696 + 3084719 + 0 + 25195 + 175);
    assertThat(ProcStat.busyTicks("intr 1 2 3\n")).isEqualTo(-1);
  }

  @Test
  void processTicksAreUtimePlusStimeCountedFromTheLastBracket() {
    String plain = "4242 (java) S 1 4242 4242 0 -1 4194560 51 0 0 0 1500 320 7 9 20 0 40 0 100 0 0";
    assertThat(ProcStat.processTicks(plain)).isEqualTo(1820);
    // a command name with spaces and a bracket of its own must not shift the fields
    String odd = "77 (my (odd) proc) R 1 77 77 0 -1 4194560 51 0 0 0 12 3 0 0 20 0 1 0 100 0 0";
    assertThat(ProcStat.processTicks(odd)).isEqualTo(15);
    assertThatThrownBy(() -> ProcStat.processTicks("garbage")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void processAndChildrenTicksAddTheReapedChildrensCpu() {
    String plain = "4242 (java) S 1 4242 4242 0 -1 4194560 51 0 0 0 1500 320 7 9 20 0 40 0 100 0 0";
    assertThat(ProcStat.processAndChildrenTicks(plain)).isEqualTo(1500 + 320 + 7 + 9);
    assertThat(ProcStat.childrenTicks(plain)).isEqualTo(7 + 9);
    assertThatThrownBy(() -> ProcStat.childrenTicks("garbage")).isInstanceOf(IllegalArgumentException.class);
    assertThat(ProcStat.readProcessAndChildrenTicks(ProcessHandle.current().pid())).isNotNegative();
    assertThat(ProcStat.readChildrenTicks(ProcessHandle.current().pid())).isNotNegative();
  }

  @Test
  void establishedConnectionsAreCountedOnTheLocalPortOnly() {
    String tcp = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
           0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1
           1: 0100007F:1F90 0100007F:A001 01 00000000:00000000 00:00000000 00000000     0        0 2 1
           2: 0100007F:1F90 0100007F:A002 01 00000000:00000000 00:00000000 00000000     0        0 3 1
           3: 0100007F:A001 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 4 1
           4: 0100007F:1F90 0100007F:A003 06 00000000:00000000 00:00000000 00000000     0        0 5 1
        """;
    // port 0x1F90 = 8080: two established server ends; the listener (0A), TIME_WAIT (06) and the client end do not count
    assertThat(ProcStat.establishedOnPort(tcp, 8080)).isEqualTo(2);
    assertThat(ProcStat.establishedOnPort(tcp, 0xA001)).isEqualTo(1);
    assertThat(ProcStat.establishedOnPort(tcp, 9)).isZero();
  }

  @Test
  void readersWorkOnThisMachine() {
    assertThat(ProcStat.readBusyTicks()).isPositive();
    assertThat(ProcStat.readProcessTicks(ProcessHandle.current().pid())).isPositive();
    assertThat(ProcStat.clockTicksPerSecond()).isPositive();
    assertThat(ProcStat.readProcessTicks(Long.MAX_VALUE)).isEqualTo(-1);
  }

  @Test
  void otherCpuIsTheMachinesBusyTimeMinusTheBenchmarkJvmsOverTheWindow() {
    // 10 s, 100 ticks/s: the machine busy 1500 ticks, the two JVMs 1450: 50 ticks = 0.5 s of 10 s = 5% of a core
    ProcStat.Sample start = new ProcStat.Sample(0, 1_000, 400);
    ProcStat.Sample end = new ProcStat.Sample(10_000_000_000L, 2_500, 1_850);
    assertThat(ProcStat.otherPercent(start, end, 100)).isCloseTo(5.0, within(1e-9));
    // the two accountings may disagree by a tick: never below zero
    assertThat(ProcStat.otherPercent(start, new ProcStat.Sample(10_000_000_000L, 2_000, 1_401), 100)).isZero();
    // unknown readings make an unknown figure
    assertThat(ProcStat.otherPercent(new ProcStat.Sample(0, -1, 0), end, 100)).isNaN();
    assertThat(ProcStat.otherPercent(start, new ProcStat.Sample(10, 2_500, -1), 100)).isNaN();
  }

  @Test
  void aNoisyWindowIsMeasuredAgainUpToTheRepeatsThenKept() {
    QuietPolicy policy = new QuietPolicy(5, 2);
    assertThat(policy.noisy(4.9)).isFalse();
    assertThat(policy.noisy(5.0)).isFalse();
    assertThat(policy.noisy(5.1)).isTrue();
    assertThat(policy.noisy(Double.NaN)).as("unknown is not noisy").isFalse();
    assertThat(policy.again(12, 1)).isTrue();
    assertThat(policy.again(12, 2)).isTrue();
    assertThat(policy.again(12, 3)).as("after 1 + 2 attempts").isFalse();
    assertThat(policy.again(1, 1)).isFalse();
    assertThat(new QuietPolicy(5, 0).again(50, 1)).isFalse();
    assertThatThrownBy(() -> new QuietPolicy(-1, 2)).isInstanceOf(IllegalArgumentException.class);
  }
}
