package demo.snippet;

import io.boltgen.annotation.BoltService;

/** The smallest useful service: one call, a record each way. */
@BoltService(name = "it.Greeter", version = "1.0")
public interface Greeter {

  /** A greeting for {@code person}. */
  Greeting greet(Person person);
}
