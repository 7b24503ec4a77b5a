package io.boltgen.spring.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application that serves {@link Greeter} and calls it: the implementation is exported by
 * the server (port {@code boltgen.server.port}), the client bean calls {@code boltgen.client.services[sample.Greeter].target}.
 *
 * <p>Both live in one context here, so two beans implement {@code Greeter}: the implementation is no
 * autowire candidate, and {@code @Autowired Greeter} gets the client.
 */
@SpringBootApplication
public class SampleApplication {

  @Bean
  Gate gate() {
    return new Gate();
  }

  @Bean(autowireCandidate = false)
  GreeterService greeterService(Gate gate) {
    return new GreeterService(gate);
  }

  public static void main(String[] args) {
    SpringApplication.run(SampleApplication.class, args);
  }
}
