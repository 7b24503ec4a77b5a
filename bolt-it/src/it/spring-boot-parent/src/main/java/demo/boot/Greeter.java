package demo.boot;

import io.boltgen.annotation.BoltService;

/** One call, enough to show the processor ran under Spring Boot's parent. */
@BoltService(name = "demo.Greeter", version = "1.0")
public interface Greeter {

  /** A greeting for {@code name}. */
  String greet(String name);
}
