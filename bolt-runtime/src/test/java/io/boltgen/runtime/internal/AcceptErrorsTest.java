package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A failed accept pauses accepting for a second, on the channel's own (here virtual) clock, and goes no further. */
class AcceptErrorsTest {

  @Test
  void anAcceptFailurePausesAcceptingForASecond() {
    EmbeddedChannel listening = new EmbeddedChannel(new AcceptErrors(() -> 42));
    listening.freezeTime();
    listening.pipeline().fireExceptionCaught(new IOException("accept(..) failed: Too many open files"));
    assertThat(listening.config().isAutoRead()).isFalse();
    listening.pipeline().fireExceptionCaught(new IOException("accept(..) failed: Too many open files"));
    listening.advanceTimeBy(AcceptErrors.PAUSE_MILLIS - 1, TimeUnit.MILLISECONDS);
    listening.runScheduledPendingTasks();
    assertThat(listening.config().isAutoRead()).isFalse();
    listening.advanceTimeBy(1, TimeUnit.MILLISECONDS);
    listening.runScheduledPendingTasks();
    assertThat(listening.config().isAutoRead()).isTrue();
    listening.checkException(); // the failure stopped here: nothing reached the pipeline's tail
    listening.finishAndReleaseAll();
  }
}
