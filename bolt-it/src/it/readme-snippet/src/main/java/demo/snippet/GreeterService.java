package demo.snippet;

/** The server side of {@link Greeter}. */
public final class GreeterService implements Greeter {

  @Override
  public Greeting greet(Person person) {
    String text = ("hello " + person.name() + "! ").repeat(person.times()).trim();
    return new Greeting(text, text.length());
  }
}
