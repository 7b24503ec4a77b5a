package demo.split.server;

import demo.split.api.Greeter;
import demo.split.api.Greeting;
import demo.split.api.Greetings;
import demo.split.api.Party;
import demo.split.api.Person;
import java.util.concurrent.CompletableFuture;

/** The implementation of the API module's {@link Greeter}. */
public final class GreeterService implements Greeter {

  @Override
  public Greeting greet(Person person) {
    return new Greeting("hello " + person.name() + " (" + person.age() + ")");
  }

  @Override
  public CompletableFuture<Greetings> greetAll(Party party) {
    return CompletableFuture.completedFuture(new Greetings(party.guests().stream()
        .map(guest -> new Greeting("happy " + party.occasion() + ", " + guest.name()))
        .toList()));
  }
}
