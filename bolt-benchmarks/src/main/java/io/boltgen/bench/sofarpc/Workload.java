package io.boltgen.bench.sofarpc;

import io.boltgen.bench.run.Loads;
import io.boltgen.runtime.BoltClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The calls both sides make, with the values bolt-sofarpc-peer's {@code PeerBench} sends: protobuf
 * {@code EchoService.echo} of a 100-letter text once (the answer: the text, its length 100, the provider's id), and
 * Hessian2 {@code GreetService.greet} of a small Greeting (a name, five scalars, two tags, one count, a Person, no
 * blob; the answer: "hello boltgen", times 2, and the rest).
 */
final class Workload {

  static final EchoRequest ECHO = new EchoRequest("x".repeat(100), 1);
  static final Greeting GREETING = new Greeting("boltgen", 1, 1_700_000_000_000L, 1.5, true, List.of("a", "b"),
      new LinkedHashMap<>(Map.of("k", 1)), new Person("ann", 30), null);

  private Workload() {}

  /** The protobuf call through {@code client}: the answer holds the text's length. */
  static Loads.Caller echo(BoltClient client, String address) {
    SofaEchoService sync = SofaEchoServiceBolt.newClient(client, address);
    SofaEchoServiceAsync async = SofaEchoServiceAsyncBolt.newClient(client, address);
    return caller(() -> sync.echo(ECHO), () -> async.echoFuture(ECHO),
        r -> r != null && r.length() == 100);
  }

  /** The Hessian2 call through {@code client}: the answer says hello to the name, times 2. */
  static Loads.Caller greet(BoltClient client, String address) {
    SofaGreetService sync = SofaGreetServiceBolt.newClient(client, address);
    SofaGreetServiceAsync async = SofaGreetServiceAsyncBolt.newClient(client, address);
    return caller(() -> sync.greet(GREETING), () -> async.greetFuture(GREETING),
        g -> g != null && "hello boltgen".equals(g.name()) && g.times() == 2);
  }

  private static <T> Loads.Caller caller(Supplier<T> sync, Supplier<CompletableFuture<T>> async, Predicate<T> right) {
    return new Loads.Caller() {
      @Override
      public String call() {
        T answer = sync.get();
        return right.test(answer) ? null : "answered " + answer;
      }

      @Override
      @SuppressWarnings("FutureReturnValueIgnored") // done takes the outcome, failures included, and does not throw
      public void call(Loads.Outcome done) {
        async.get().whenComplete((answer, error) -> done.done(0, error != null || right.test(answer) ? null
            : "answered " + answer, error));
      }
    };
  }

  /** The fields of the consumer's {@code RESULT k=v … error=TEXT} line (error: the rest of the line). */
  static Map<String, String> fields(String line) {
    Map<String, String> f = new LinkedHashMap<>();
    String rest = line.substring("RESULT ".length());
    int error = rest.indexOf(" error=");
    if (error >= 0) {
      f.put("error", rest.substring(error + " error=".length()));
      rest = rest.substring(0, error);
    }
    for (String kv : rest.trim().split(" ")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        f.put(kv.substring(0, eq), kv.substring(eq + 1));
      }
    }
    return f;
  }
}
