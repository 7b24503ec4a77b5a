package io.boltgen.spring.process;

import io.boltgen.runtime.BoltException;
import io.boltgen.spring.sample.Gate;
import io.boltgen.spring.sample.Greeter;
import io.boltgen.spring.sample.Name;
import io.boltgen.spring.sample.SampleApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sample application as a process of its own, configured only by its environment and arguments, as a
 * deployment runs it (for {@link SampleProcessTest}). With {@code SAMPLE_EAGER_USER=true}, a bean of its own
 * injects {@link Greeter} at startup, as an application's service would. Once started it looks the client up,
 * calls {@code greet} and {@code greetSlowly} (whose gate stays closed, so it answers only if its
 * timeout is longer than 30 s) and prints {@code CALL <method> ok <greeting>} or {@code CALL <method> failed
 * <status>}, then closes the context and exits 0. A startup that fails exits 1 after Spring Boot printed its
 * failure analysis.
 */
public final class SampleProcess {

  private SampleProcess() {}

  /** A bean that needs the client at startup, as an application's service would. */
  record GreeterUser(Greeter greeter) {}

  /** Declares {@link GreeterUser}, when asked to. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = "sample.eager-user", havingValue = "true")
  static class Users {
    @Bean
    GreeterUser greeterUser(Greeter greeter) {
      return new GreeterUser(greeter);
    }
  }

  public static void main(String[] args) {
    ConfigurableApplicationContext context;
    try {
      context = new SpringApplicationBuilder(SampleApplication.class, Users.class).run(args);
    } catch (RuntimeException e) {
      System.exit(1); // Spring Boot has reported why
      return;
    }
    try {
      // looked up once started: its target names the port the server listens on
      Greeter greeter = context.getBean(Greeter.class);
      call("greet", () -> greeter.greet(new Name("env")).text());
      call("greetSlowly", () -> greeter.greetSlowly(new Name("env")).text());
    } finally {
      context.getBean(Gate.class).open();
      context.close();
    }
    System.exit(0);
  }

  private static void call(String method, java.util.function.Supplier<String> call) {
    String outcome;
    try {
      outcome = "ok " + call.get();
    } catch (BoltException e) {
      outcome = "failed " + e.status();
    }
    System.out.println("CALL " + method + " " + outcome);
    System.out.flush();
  }
}
