package io.boltgen.bench.mesh;

import io.boltgen.bench.run.Loads;
import io.boltgen.registry.etcd.EtcdRegistry;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.cluster.BalancingPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The {@code mesh} benchmark's direct client: the same closed loop as wrk's, without HTTP. A boltgen client in this
 * JVM resolves {@code etcd:///mesh.Hash:1.0}; its {@link #callers} send {@code hash} calls with a random text of 1 to
 * 64 letters and digits each, for the one closed-loop load ({@link Loads}).
 */
final class DirectClient implements AutoCloseable {

  /** The target the providers are found under. */
  static final String TARGET = "etcd:///mesh.Hash:1.0";
  /** The longest random text, here and in wrk's script ({@link io.boltgen.bench.run.Wrk#randomTextScript}). */
  static final int MAX_TEXT = 64;

  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private final EtcdRegistry registry;
  private final BoltClient client;
  private final BoltChannel channel;
  private final long seed;

  DirectClient(String etcdUrl, BalancingPolicy policy, long seed) {
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

  /**
   * {@code connections} callers for an async {@link Loads} load of as many chains, caller {@code i} sending random
   * texts from {@code seed + i}: right when the answer is the text's hash. A caller's random is its one chain's: a
   * load of more chains than callers, or a sync one, is refused (its blocking call throws).
   */
  List<Loads.Caller> callers(int connections) {
    List<Loads.Caller> callers = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      SplittableRandom random = new SplittableRandom(seed + i);
      callers.add(new Loads.Caller() {
        @Override
        public String call() {
          throw new UnsupportedOperationException("the direct client's load is async");
        }

        @Override
        @SuppressWarnings("FutureReturnValueIgnored") // done takes the outcome, failures included, and does not throw
        public void call(Loads.Outcome done) {
          String text = text(random);
          channel.invokeFuture(HashServiceBolt.METHOD_HASH, new HashServiceBolt.HashRequest(text), CallOptions.DEFAULT)
              .whenComplete((hash, error) -> done.done(0, error != null || (hash != null && hash == text.hashCode())
                  ? null : "answered " + hash + ", not the hash " + text.hashCode(), error));
        }
      });
    }
    return callers;
  }

  @Override
  public void close() {
    client.close();
    registry.close();
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
