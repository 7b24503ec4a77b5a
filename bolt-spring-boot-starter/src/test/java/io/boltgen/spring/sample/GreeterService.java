package io.boltgen.spring.sample;

import io.boltgen.spring.BoltExport;

/** The implementation, exported by the auto-configured server because of {@link BoltExport}. */
@BoltExport
public class GreeterService extends GreeterStreams {

  private final Gate gate;

  public GreeterService(Gate gate) {
    this.gate = gate;
  }

  @Override
  public Greeting greet(Name name) {
    return new Greeting("hello " + name.value());
  }

  @Override
  public Greeting greetSlowly(Name name) {
    try {
      gate.pass();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return new Greeting("slowly, hello " + name.value());
  }
}
