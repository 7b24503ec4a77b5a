package io.boltgen.cluster.it;

import static org.awaitility.Awaitility.await;

import io.boltgen.runtime.BoltException;
import io.boltgen.runtime.ResponseStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Continuous load on a {@link Counter}: callers that each alternate an idempotent {@code read()} and a
 * non-idempotent {@code add(1)}, back to back, until stopped, keeping every failure with the method it hit.
 */
final class Load implements AutoCloseable {

  /** One failed call. */
  record Failure(String method, ResponseStatus status, String message) {}

  final AtomicLong ok = new AtomicLong();
  final AtomicLong added = new AtomicLong();
  final List<Failure> failures = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;

  Load(Counter counter, int callers) {
    for (int t = 0; t < callers; t++) {
      Thread thread = new Thread(() -> {
        boolean write = false;
        while (running) {
          try {
            if (write) {
              counter.add(1);
              added.incrementAndGet();
            } else {
              counter.read();
            }
            ok.incrementAndGet();
          } catch (BoltException e) {
            failures.add(new Failure(write ? "add" : "read", e.status(), e.getMessage()));
          } catch (RuntimeException e) {
            failures.add(new Failure(write ? "add" : "read", null, e.toString()));
          }
          write = !write;
        }
      }, "load-" + t);
      thread.setDaemon(true);
      thread.start();
      threads.add(thread);
    }
  }

  /** Waits until {@code calls} more calls succeeded (at most 60 s). */
  void awaitMore(long calls) {
    long target = ok.get() + calls;
    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> ok.get() >= target);
  }

  /** The failures of {@code method}. */
  List<Failure> failuresOf(String method) {
    return failures.stream().filter(f -> f.method().equals(method)).toList();
  }

  @Override
  public void close() {
    running = false;
    try {
      for (Thread t : threads) {
        t.join(30_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the test is being stopped: its callers stop on their own
    }
  }
}
