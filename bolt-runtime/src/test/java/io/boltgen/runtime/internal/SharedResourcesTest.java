package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.channel.epoll.Epoll;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The shared threads start with the first reference and stop with the last, whichever thread drops it. */
class SharedResourcesTest {

  @Test
  void theLastReleaseOnTheTimerThreadStopsEveryThread() throws Exception {
    assertThat(SharedResources.references()).as("references left by earlier tests").isZero();
    SharedResources shared = SharedResources.acquire();
    CompletableFuture<Thread> releasedOn = new CompletableFuture<>();
    shared.timer().newTimeout(t -> {
      try {
        shared.release(); // as a client closed from a callback of a call that timed out does
        releasedOn.complete(Thread.currentThread());
      } catch (Throwable e) {
        releasedOn.completeExceptionally(e);
      }
    }, 1, TimeUnit.MILLISECONDS);
    Thread timerThread = releasedOn.get(10, TimeUnit.SECONDS);
    assertThat(timerThread.getName()).startsWith("boltgen-timer");
    await().atMost(Duration.ofSeconds(15)).until(() -> !timerThread.isAlive()
        && shared.ioGroup().isTerminated() && shared.bossGroup().isTerminated());
    assertThat(SharedResources.references()).isZero();
  }

  @Test
  void theLastReleaseOnAnIoThreadStopsEveryThread() throws Exception {
    assertThat(SharedResources.references()).as("references left by earlier tests").isZero();
    SharedResources shared = SharedResources.acquire();
    CompletableFuture<Void> released = new CompletableFuture<>();
    shared.ioGroup().next().execute(() -> {
      try {
        shared.release();
        released.complete(null);
      } catch (Throwable e) {
        released.completeExceptionally(e);
      }
    });
    released.get(10, TimeUnit.SECONDS);
    await().atMost(Duration.ofSeconds(15)).until(() -> shared.ioGroup().isTerminated());
  }

  @Test
  void theTransportPropertyPicksNioOrRefusesWhatItDoesNotKnow() {
    assertThat(SharedResources.useEpoll("nio")).isFalse();
    assertThat(SharedResources.useEpoll("auto")).isEqualTo(Epoll.isAvailable());
    assertThatThrownBy(() -> SharedResources.useEpoll("kqueue"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto, epoll or nio");
  }
}
