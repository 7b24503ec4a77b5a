package demo.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A plain Spring Boot application: the starter adds the server and the client beans. */
@SpringBootApplication
public class GreeterApplication {

  public static void main(String[] args) {
    SpringApplication.run(GreeterApplication.class, args);
  }
}
