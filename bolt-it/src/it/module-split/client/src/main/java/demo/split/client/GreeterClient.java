package demo.split.client;

import demo.split.api.Greeter;
import demo.split.api.GreeterBolt;
import demo.split.api.Greeting;
import demo.split.api.Greetings;
import demo.split.api.Party;
import demo.split.api.Person;
import io.boltgen.runtime.BoltClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** What an application does with the API jar: builds a stub with the generated {@code GreeterBolt}. */
public final class GreeterClient {

  private final Greeter greeter;

  /** A client of the server at {@code hostAndPort}, over {@code client}'s connections. */
  public GreeterClient(BoltClient client, String hostAndPort) {
    this.greeter = GreeterBolt.newClient(client.channel(hostAndPort));
  }

  /** The server's greeting for {@code name}. */
  public String greet(String name, int age) {
    Greeting greeting = greeter.greet(new Person(name, age));
    return greeting.text();
  }

  /** The server's greetings for everyone in {@code names}, once they arrive. */
  public CompletableFuture<List<String>> greetAll(String occasion, List<String> names) {
    Party party = new Party(occasion, names.stream().map(name -> new Person(name, 0)).toList());
    return greeter.greetAll(party).thenApply(Greetings::greetings)
        .thenApply(all -> all.stream().map(Greeting::text).toList());
  }
}
