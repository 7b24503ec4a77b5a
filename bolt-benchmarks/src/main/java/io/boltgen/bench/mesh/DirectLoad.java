package io.boltgen.bench.mesh;

import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The {@code mesh} benchmark's direct case: the same closed loop as wrk's, without HTTP. A boltgen client in this
 * JVM resolves {@code etcd:///mesh.Hash:1.0} and keeps {@code connections} async {@code hash} calls in flight, each
 * caller issuing its next call when its answer came, with a random text of 1 to 64 letters and digits per call;
 * latencies of answered calls in an HdrHistogram.
 */
final class DirectLoad implements AutoCloseable {

  /** The target the providers are found under. */
  static final String TARGET = "etcd:///mesh.Hash:1.0";
  /** The longest random text, here and in wrk's script ({@link io.boltgen.bench.run.Wrk#randomTextScript}). */
  static final int MAX_TEXT = 64;

  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  /**
   * One measured window.
   *
   * @param calls calls answered in it
   * @param errors calls failed in it
   * @param firstError the first failure, or empty
   * @param histogram latencies in microseconds of the calls answered in it
   */
  record Window(long calls, long errors, String firstError, double seconds, Histogram histogram) {}

  private final EtcdRegistry registry;
  private final BoltClient client;
  private final BoltChannel channel;
  private final long seed;

  DirectLoad(String etcdUrl, BalancingPolicy policy, long seed) {
    this.registry = EtcdRegistry.builder().endpoints(etcdUrl).build();
    this.client = BoltClient.builder().nameResolver(registry).balancingPolicy(policy).build();
    this.channel = client.channel(TARGET);
    this.seed = seed;
  }

  /** Waits (at most {@code bound}) until the client knows {@code n} instances. */
  void awaitInstances(int n, Duration bound) throws InterruptedException {
    long deadline = System.nanoTime() + bound.toNanos();
    while (client.instances(TARGET).size() < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the direct client saw " + client.instances(TARGET).size() + " of " + n
            + " instances of " + TARGET + " after " + bound.toSeconds() + " s");
      }
      TimeUnit.MILLISECONDS.sleep(20); // the resolver's watch has no hook to wait on from here
    }
  }

  /** One call, checked: the answer must be the text's hash. */
  int hashOf(String text) throws Exception {
    return channel.invokeFuture(HashServiceBolt.METHOD_HASH, new HashServiceBolt.HashRequest(text), CallOptions.DEFAULT)
        .get(10, TimeUnit.SECONDS);
  }

  /** Starts {@code connections} callers; they run until {@link Running#stop}. */
  Running start(int connections) {
    Running load = new Running(connections);
    load.start();
    return load;
  }

  @Override
  public void close() {
    client.close();
    registry.close();
  }

  /** The callers of one run: {@link #reset} starts a window, {@link #take} ends it. */
  final class Running {
    final int connections;
    final Recorder latencies = new Recorder(TimeUnit.SECONDS.toMicros(60), 3);
    final AtomicLong calls = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final AtomicReference<String> firstError = new AtomicReference<>();
    final CountDownLatch stopped;
    volatile boolean running = true;
    /** Where a caller whose call failed at once goes on, so that failures never recurse on one stack. */
    final Executor later = CompletableFuture.delayedExecutor(1, TimeUnit.MILLISECONDS);

    private long calls0;
    private long errors0;
    private long t0;

    Running(int connections) {
      this.connections = connections;
      this.stopped = new CountDownLatch(connections);
    }

    private void start() {
      for (int i = 0; i < connections; i++) {
        SplittableRandom random = new SplittableRandom(seed + i);
        next(random);
      }
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the outcome is taken by the callback, failures included
    void next(SplittableRandom random) {
      if (!running) {
        stopped.countDown();
        return;
      }
      String text = text(random);
      long start = System.nanoTime();
      CompletableFuture<Integer> call;
      try {
        call = channel.invokeFuture(HashServiceBolt.METHOD_HASH, new HashServiceBolt.HashRequest(text),
            CallOptions.DEFAULT);
      } catch (RuntimeException e) {
        call = CompletableFuture.failedFuture(e);
      }
      call.whenComplete((hash, error) -> {
        if (error == null && hash != null && hash == text.hashCode()) {
          latencies.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
          calls.incrementAndGet();
          next(random);
        } else {
          errors.incrementAndGet();
          firstError.compareAndSet(null, error != null ? error.toString() : "answered " + hash + ", not the hash "
              + text.hashCode());
          later.execute(() -> next(random));
        }
      });
    }

    /** Starts a measured window: what was measured so far is dropped. */
    void reset() {
      calls0 = calls.get();
      errors0 = errors.get();
      firstError.set(null);
      latencies.getIntervalHistogram();
      t0 = System.nanoTime();
    }

    /** The window since {@link #reset}. */
    Window take() {
      long t1 = System.nanoTime();
      Histogram h = latencies.getIntervalHistogram();
      String first = firstError.get();
      return new Window(calls.get() - calls0, errors.get() - errors0, first == null ? "" : first, (t1 - t0) / 1e9, h);
    }

    /** Stops the callers and waits (at most 30 s) until their last calls are answered. */
    void stop() throws InterruptedException {
      running = false;
      if (!stopped.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(stopped.getCount() + " direct calls were not answered 30 s after the load"
            + " stopped");
      }
    }
  }

  private static String text(SplittableRandom random) {
    int n = random.nextInt(1, MAX_TEXT + 1);
    char[] chars = new char[n];
    for (int i = 0; i < n; i++) {
      chars[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
    }
    return new String(chars);
  }
}
