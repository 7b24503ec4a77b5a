package demo.split.api;

import io.boltgen.annotation.BoltService;
import java.util.concurrent.CompletableFuture;

/** Greets people; declared here, implemented in the server module, called from the client module. */
@BoltService(name = "split.Greeter", version = "1.0")
public interface Greeter {

  /** A greeting for {@code person}, blocking until the server answers. */
  Greeting greet(Person person);

  /** Greetings for a whole {@code party}, without blocking. */
  CompletableFuture<Greetings> greetAll(Party party);
}
