package io.boltgen.runtime.internal.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The bounds of the virtual-thread executor: as many running and queued as asked, never more. Java 21+. */
@Tag("jdk21")
class VirtualThreadPoolTest {

  private final VirtualThreadPool pool = VirtualThreadPool.create("test-virtual", 3, 2);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void runsAtMostItsMaximumAtOnceQueuesTheNextAndRefusesBeyond() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    Set<String> threads = ConcurrentHashMap.newKeySet();
    Runnable blocking = () -> {
      most.accumulateAndGet(running.incrementAndGet(), Math::max);
      threads.add(Thread.currentThread().getClass().getName() + " " + Thread.currentThread().getName());
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      running.decrementAndGet();
      done.incrementAndGet();
    };
    for (int i = 0; i < 5; i++) {
      pool.execute(blocking);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> running.get() == 3);
    assertThat(pool.submitted()).isEqualTo(5);
    assertThatThrownBy(() -> pool.execute(blocking)).isInstanceOf(RejectedExecutionException.class)
        .hasMessage("3 tasks run and 2 wait already");
    release.countDown();
    await().atMost(Duration.ofSeconds(10)).until(() -> done.get() == 5);
    assertThat(most).hasValue(3);
    assertThat(threads).allSatisfy(t -> assertThat(t).startsWith("java.lang.VirtualThread test-virtual-"));
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.submitted() == 0);
  }

  @Test
  void aFailingTaskLeavesTheThreadToTheNextAndShutdownLetsQueuedTasksFinish() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger done = new AtomicInteger();
    for (int i = 0; i < 3; i++) {
      pool.execute(() -> {
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    pool.execute(() -> {
      throw new IllegalStateException("expected by the test");
    });
    pool.execute(done::incrementAndGet);
    pool.shutdown();
    assertThatThrownBy(() -> pool.execute(done::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
    assertThat(pool.awaitTermination(10, TimeUnit.MILLISECONDS)).isFalse();
    release.countDown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(done).hasValue(1);
    assertThat(pool.isTerminated()).isTrue();
  }

  @Test
  void shutdownNowHandsBackWhatWaitedAndInterruptsWhatRuns() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(3);
    for (int i = 0; i < 3; i++) {
      pool.execute(() -> {
        try {
          new CountDownLatch(1).await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          interrupted.countDown();
        }
      });
    }
    Runnable waiting = () -> { };
    pool.execute(waiting);
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.submitted() == 4);
    List<Runnable> left = pool.shutdownNow();
    assertThat(left).containsExactly(waiting);
    assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }
}
