package io.boltgen.bench.sofarpc;

import io.boltgen.runtime.BoltClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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

  /** The protobuf calls through {@code client}: [sync, async]. */
  static BoltgenLoad.Call[] echo(BoltClient client, String address) {
    SofaEchoService sync = SofaEchoServiceBolt.newClient(client, address);
    SofaEchoServiceAsync async = SofaEchoServiceAsyncBolt.newClient(client, address);
    BoltgenLoad.Call call = call(() -> sync.echo(ECHO), () -> async.echoFuture(ECHO));
    return new BoltgenLoad.Call[] {call, call};
  }

  /** The Hessian2 calls through {@code client}: [sync, async]. */
  static BoltgenLoad.Call[] greet(BoltClient client, String address) {
    SofaGreetService sync = SofaGreetServiceBolt.newClient(client, address);
    SofaGreetServiceAsync async = SofaGreetServiceAsyncBolt.newClient(client, address);
    BoltgenLoad.Call call = new BoltgenLoad.Call() {
      @Override
      public Object sync() {
        return sync.greet(GREETING);
      }

      @Override
      public CompletableFuture<?> async() {
        return async.greetFuture(GREETING);
      }

      @Override
      public String check(Object answer) {
        return answer instanceof Greeting g && "hello boltgen".equals(g.name()) && g.times() == 2 ? null
            : "answered " + answer;
      }
    };
    return new BoltgenLoad.Call[] {call, call};
  }

  private static BoltgenLoad.Call call(Supplier<EchoReply> sync, Supplier<CompletableFuture<EchoReply>> async) {
    return new BoltgenLoad.Call() {
      @Override
      public Object sync() {
        return sync.get();
      }

      @Override
      public CompletableFuture<?> async() {
        return async.get();
      }

      @Override
      public String check(Object answer) {
        return answer instanceof EchoReply r && r.length() == 100 ? null : "answered " + answer;
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
