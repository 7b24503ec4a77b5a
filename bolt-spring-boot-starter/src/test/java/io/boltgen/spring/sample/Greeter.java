package io.boltgen.spring.sample;

import io.boltgen.annotation.BoltService;

/** The sample service: a quick call and one that waits for the test's {@link Gate}. */
@BoltService(name = "sample.Greeter", version = "1.0", timeoutMillis = 5000)
public interface Greeter {

  /** Greets at once. */
  Greeting greet(Name name);

  /** Greets once the gate opens. */
  Greeting greetSlowly(Name name);
}
