package io.boltgen.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.CallOptions;
import io.boltgen.spring.sample.Greeter;
import io.boltgen.spring.sample.GreeterBolt;
import io.boltgen.spring.sample.GreeterStreams;
import io.boltgen.spring.sample.Greeting;
import io.boltgen.spring.sample.Name;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code spring.threads.virtual.enabled=true} puts the starter's server handlers and client callbacks on virtual
 * threads where Spring itself would use them (Java 21+), and leaves the pools on Java 17, as Spring does. The
 * build runs this on both JDKs.
 */
class VirtualThreadsPropertyTest {

  private static final boolean VIRTUAL = Runtime.version().feature() >= 21;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BoltClientAutoConfiguration.class, BoltServerAutoConfiguration.class));

  /** Answers with the name of the thread its handler ran on, and its kind. */
  static final class ThreadNamingGreeter extends GreeterStreams {
    @Override
    public Greeting greet(Name name) {
      Thread thread = Thread.currentThread();
      return new Greeting(thread.getClass().getName() + " " + thread.getName());
    }

    @Override
    public Greeting greetSlowly(Name name) {
      return greet(name);
    }
  }

  /** The properties block of docs/spring.md's "Virtual threads", as pasted: one key=value per line. */
  private static String[] snippet() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "spring.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("## Virtual threads\\n.*?```properties\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    assertThat(m.find()).as("a properties block under ## Virtual threads in docs/spring.md").isTrue();
    return m.group(1).strip().split("\\n");
  }

  @Test
  void handlersAndCallbacksRunOnVirtualThreadsWhereSpringSaysSo() throws IOException {
    assertThat(snippet()).containsExactly("spring.threads.virtual.enabled=true");
    runner.withPropertyValues(snippet())
        .withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0",
            "boltgen.server.services=sample.Greeter")
        .withBean(ThreadNamingGreeter.class)
        .run(context -> {
          assertThat(context).hasNotFailed();
          int port = context.getEnvironment().getProperty("local.boltgen.server.port", Integer.class);
          BoltChannel channel = context.getBean(BoltClient.class).channel("127.0.0.1:" + port);
          String[] handler = channel.invokeSync(GreeterBolt.METHOD_GREET, new GreeterBolt.GreetRequest(new Name("x")),
              CallOptions.DEFAULT).text().split(" ");
          Thread callback = channel.invokeFuture(GreeterBolt.METHOD_GREET,
                  new GreeterBolt.GreetRequest(new Name("y")), CallOptions.DEFAULT)
              .thenApplyAsync(greeting -> Thread.currentThread()).get(10, TimeUnit.SECONDS);
          if (VIRTUAL) {
            assertThat(handler).containsExactly("java.lang.VirtualThread", handler[1]);
            assertThat(handler[1]).startsWith("boltgen-worker-virtual-");
            assertThat(callback.getClass().getName()).isEqualTo("java.lang.VirtualThread");
            assertThat(callback.getName()).startsWith("boltgen-callback-virtual-");
          } else {
            // Java 17: Spring leaves its own threads on the platform, and so does the starter
            assertThat(handler[0]).isNotEqualTo("java.lang.VirtualThread");
            assertThat(handler[1]).startsWith("boltgen-worker-").doesNotContain("virtual");
            assertThat(callback.getName()).startsWith("boltgen-callback-").doesNotContain("virtual");
          }
        });
  }

  @Test
  void withoutThePropertyThePoolsStay() {
    runner.withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0",
            "boltgen.server.services=sample.Greeter")
        .withBean(ThreadNamingGreeter.class)
        .run(context -> {
          int port = context.getEnvironment().getProperty("local.boltgen.server.port", Integer.class);
          BoltChannel channel = context.getBean(BoltClient.class).channel("127.0.0.1:" + port);
          String handler = channel.invokeSync(GreeterBolt.METHOD_GREET, new GreeterBolt.GreetRequest(new Name("x")),
              CallOptions.DEFAULT).text();
          assertThat(handler).doesNotStartWith("java.lang.VirtualThread").contains(" boltgen-worker-")
              .doesNotContain("virtual");
        });
  }
}
