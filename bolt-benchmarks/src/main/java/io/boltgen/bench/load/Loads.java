package io.boltgen.bench.load;

import io.boltgen.bench.load.EchoSystem.EchoClient;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * The closed-loop loads the harness drives: blocking threads ({@link Sync}) or chains of calls in flight
 * ({@link Async}), each recording the latency of every call that completes into an HdrHistogram
 * {@link Recorder} (wait-free for writers, 3 significant digits) and counting failures.
 */
final class Loads {

  /** Recursion depth after which an async completion hands its next call to another thread. */
  private static final int MAX_INLINE_DEPTH = 16;
  private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

  private Loads() {}

  /** {@code bytes} random bytes from {@code seed}. */
  static byte[] payload(int bytes, long seed) {
    byte[] payload = new byte[bytes];
    new SplittableRandom(seed).nextBytes(payload);
    return payload;
  }

  /** A load: started, measured through its recorder, stopped. */
  abstract static class Load {
    final Recorder recorder = new Recorder(3);
    final LongAdder errors = new LongAdder();
    final AtomicReference<Throwable> firstError = new AtomicReference<>();
    final byte[] payload;
    volatile boolean stopped;

    Load(byte[] payload) {
      this.payload = payload;
    }

    abstract void start();

    /** Stops issuing calls and waits (a bounded time) for those in flight. */
    abstract void stop() throws InterruptedException;

    /** Forgets the failures so far: a window starts. */
    final void resetErrors() {
      errors.reset();
      firstError.set(null);
    }

    final void outcome(long startNanos, int length, Throwable error) {
      if (error == null && length == payload.length) {
        recorder.recordValue(System.nanoTime() - startNanos);
      } else {
        errors.increment();
        firstError.compareAndSet(null,
            error != null ? error : new IllegalStateException("echo of " + length + " bytes for " + payload.length));
      }
    }
  }

  /** Threads making blocking calls back to back over one client. */
  static final class Sync extends Load {
    private final EchoClient client;
    private final int threadCount;
    private final List<Thread> threads = new ArrayList<>();

    Sync(EchoClient client, int threads, byte[] payload) {
      super(payload);
      this.client = client;
      this.threadCount = threads;
    }

    @Override
    void start() {
      for (int i = 0; i < threadCount; i++) {
        Thread t = new Thread(this::loop, "load-sync-" + i);
        t.setDaemon(true);
        threads.add(t);
        t.start();
      }
    }

    private void loop() {
      while (!stopped) {
        long start = System.nanoTime();
        int length;
        try {
          length = client.call(payload);
        } catch (Throwable e) {
          outcome(start, -1, e);
          continue;
        }
        outcome(start, length, null);
      }
    }

    @Override
    void stop() throws InterruptedException {
      stopped = true;
      for (Thread t : threads) {
        t.join(10_000);
      }
    }
  }

  /**
   * A fixed number of call chains, chain {@code i} on client {@code i mod clients}: each completion issues
   * the chain's next call on the same client, so every client (connection) always has its share in flight.
   */
  static final class Async extends Load {
    private final List<EchoClient> clients;
    private final int chains;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ExecutorService trampoline = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "load-async-trampoline");
      t.setDaemon(true);
      return t;
    });

    Async(List<EchoClient> clients, int chains, byte[] payload) {
      super(payload);
      this.clients = List.copyOf(clients);
      this.chains = chains;
    }

    @Override
    void start() {
      for (int i = 0; i < chains; i++) {
        issue(clients.get(i % clients.size()));
      }
    }

    private void issue(EchoClient client) {
      if (stopped) {
        return;
      }
      inFlight.incrementAndGet();
      long start = System.nanoTime();
      client.call(payload, (length, error) -> {
        outcome(start, length, error);
        inFlight.decrementAndGet();
        next(client);
      });
    }

    /** Issues the next call here, unless this thread is already deep in completions that completed at once. */
    private void next(EchoClient client) {
      int[] depth = DEPTH.get();
      if (depth[0] >= MAX_INLINE_DEPTH) {
        trampoline.execute(() -> issue(client));
        return;
      }
      depth[0]++;
      try {
        issue(client);
      } finally {
        depth[0]--;
      }
    }

    @Override
    void stop() {
      stopped = true;
      InFlight.drain(inFlight, trampoline);
    }
  }
}
