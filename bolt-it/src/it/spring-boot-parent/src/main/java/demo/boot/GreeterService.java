package demo.boot;

import io.boltgen.spring.BoltExport;
import org.springframework.stereotype.Component;

/** The implementation, served by the starter's server because of {@link BoltExport}. */
@BoltExport
@Component
public class GreeterService implements Greeter {

  @Override
  public String greet(String name) {
    return "hello " + name;
  }
}
