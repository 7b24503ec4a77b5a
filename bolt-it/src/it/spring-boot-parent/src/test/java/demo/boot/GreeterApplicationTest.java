package demo.boot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The application started for real: its server on a free loopback port, and the client bean for
 * {@code demo.Greeter} calling that port. Starting at all also proves the Netty on the class path is one the
 * runtime accepts (it refuses an older one when the server is built).
 */
class GreeterApplicationTest {

  @Test
  void theClientBeanCallsTheExportedServiceOverLoopback() {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(GreeterApplication.class)
        .main(GreeterApplication.class) // not the test runner: it names the application in the log
        .run("--boltgen.server.host=127.0.0.1",
            "--boltgen.server.port=0",
            "--boltgen.client.services[demo.Greeter].target=127.0.0.1:${local.boltgen.server.port}")) {
      // the client bean is named after the service; looked up now, once the server listens on its port
      Greeter greeter = context.getBean("demo.Greeter", Greeter.class);

      assertThat(greeter).isNotInstanceOf(GreeterService.class);
      assertThat(greeter.greet("boot")).isEqualTo("hello boot");
    }
  }
}
