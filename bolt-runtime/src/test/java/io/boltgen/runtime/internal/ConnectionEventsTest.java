package io.boltgen.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.Connection;
import io.boltgen.runtime.ConnectionListener;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A listener that is behind holds at most {@link ConnectionEvents#MAX_QUEUED} events; the rest are dropped. */
class ConnectionEventsTest {

  @Test
  void eventsBeyondTheQueueOfASlowListenerAreDropped() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger delivered = new AtomicInteger();
    ConnectionEvents events = new ConnectionEvents(List.of(new ConnectionListener() {
      @Override
      public void onConnect(Connection connection) {
        delivered.incrementAndGet();
        entered.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }), "test");
    events.connected(null);
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue(); // the listener is busy with the first
    for (int i = 0; i < ConnectionEvents.MAX_QUEUED + 5; i++) {
      events.connected(null);
    }
    release.countDown();
    events.shutdown(30_000);
    assertThat(delivered.get()).isEqualTo(1 + ConnectionEvents.MAX_QUEUED);
  }
}
