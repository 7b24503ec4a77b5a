package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Reads pause while too much is open, the peer does not read or a protocol holds them, and resume at half. */
class ReadThrottleTest {

  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final ReadThrottle throttle = new ReadThrottle(channel, 4);

  @AfterEach
  void tearDown() {
    channel.finishAndReleaseAll();
  }

  @Test
  void readsPauseAtTheLimitAndResumeAtHalf() {
    for (int i = 0; i < 4; i++) {
      throttle.open(1);
    }
    throttle.update();
    assertThat(channel.config().isAutoRead()).isFalse();
    throttle.close();
    channel.runPendingTasks();
    assertThat(channel.config().isAutoRead()).as("3 open: still above half").isFalse();
    throttle.close();
    channel.runPendingTasks();
    assertThat(channel.config().isAutoRead()).as("2 open: half").isTrue();
  }

  @Test
  void readsPauseWhileThePeerDoesNotReadItsAnswers() {
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, false);
    throttle.update();
    assertThat(throttle.isPaused()).isTrue();
    channel.unsafe().outboundBuffer().setUserDefinedWritability(1, true);
    throttle.update();
    assertThat(throttle.isPaused()).isFalse();
    assertThat(channel.config().isAutoRead()).isTrue();
  }

  @Test
  void aHoldPausesReadsWhateverElseAllowsThemAndOnlyItsReleaseResumesThem() {
    throttle.hold(true);
    assertThat(channel.config().isAutoRead()).isFalse();
    throttle.update(); // nothing open, writable: still held
    assertThat(channel.config().isAutoRead()).isFalse();
    throttle.hold(false);
    assertThat(channel.config().isAutoRead()).isTrue();
    // held while also at the limit: released, it stays paused until half are closed
    for (int i = 0; i < 4; i++) {
      throttle.open(1);
    }
    throttle.hold(true);
    throttle.hold(false);
    assertThat(channel.config().isAutoRead()).as("4 open").isFalse();
    throttle.close();
    throttle.close();
    channel.runPendingTasks();
    assertThat(channel.config().isAutoRead()).isTrue();
  }
}
