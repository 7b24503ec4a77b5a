package io.boltgen.spring.sample;

import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * The sample service: a quick call, one that waits for the test's {@link Gate}, and a stream of each kind (the
 * injected stub streams as the generated one does).
 */
@BoltService(name = "sample.Greeter", version = "1.0", timeoutMillis = 5000)
public interface Greeter {

  /** Greets at once. */
  Greeting greet(Name name);

  /** Greets once the gate opens. */
  Greeting greetSlowly(Name name);

  /** Greets each word of the name, one greeting each (server streaming). */
  Flow.Publisher<Greeting> greetEachWord(Name name);

  /** Greets every name the caller streams, in one greeting after the last (client streaming). */
  CompletableFuture<Greeting> greetAll(Flow.Publisher<Name> names);

  /** Greets each name the caller streams, as it comes (bidirectional streaming). */
  Flow.Publisher<Greeting> greetEach(Flow.Publisher<Name> names);
}
