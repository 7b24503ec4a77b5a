package io.boltgen.spring.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.runtime.Publishers;
import io.boltgen.spring.BoltServerLifecycle;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The sample application in a real context: its server on a free port, its client bean (injected as the
 * interface) calling it over loopback, Actuator's health endpoint reporting both.
 */
@SpringBootTest(properties = {
    "boltgen.server.host=127.0.0.1",
    "boltgen.server.port=0",
    "boltgen.client.services[sample.Greeter].target=127.0.0.1:${local.boltgen.server.port}",
    "management.endpoint.health.show-details=always"})
class SampleApplicationTest {

  @Autowired
  Greeter greeter;

  @Autowired
  BoltClient client;

  @Autowired
  BoltServer server;

  @Autowired
  BoltServerLifecycle lifecycle;

  @Autowired
  HealthEndpoint health;

  @Test
  void theClientBeanCallsTheExportedBean() {
    assertThat(greeter.greet(new Name("spring"))).isEqualTo(new Greeting("hello spring"));
    assertThat(greeter).isNotInstanceOf(GreeterService.class);
    assertThat(lifecycle.isRunning()).isTrue();
    assertThat(lifecycle.services()).containsExactly("sample.Greeter");
    assertThat(client.connections()).isNotEmpty();
    assertThat(server.connections()).isNotEmpty();
  }

  /** The injected stub streams each way, over Bolt, as the generated stub does. */
  @Test
  void theClientBeanStreams() throws Exception {
    assertThat(collect(greeter.greetEachWord(new Name("ada grace linus")))).containsExactly(
        new Greeting("hello ada"), new Greeting("hello grace"), new Greeting("hello linus"));
    assertThat(greeter.greetAll(Publishers.of(List.of(new Name("ada"), new Name("grace"))))
        .get(10, TimeUnit.SECONDS)).isEqualTo(new Greeting("hello ada, grace"));
    assertThat(collect(greeter.greetEach(Publishers.of(List.of(new Name("x"), new Name("y"))))))
        .containsExactly(new Greeting("hello x"), new Greeting("hello y"));
  }

  private static List<Greeting> collect(Flow.Publisher<Greeting> greetings) throws Exception {
    List<Greeting> seen = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    greetings.subscribe(new Flow.Subscriber<>() {
      @Override
      public void onSubscribe(Flow.Subscription subscription) {
        subscription.request(Long.MAX_VALUE);
      }

      @Override
      public void onNext(Greeting greeting) {
        seen.add(greeting);
      }

      @Override
      public void onError(Throwable error) {
        done.completeExceptionally(error);
      }

      @Override
      public void onComplete() {
        done.complete(null);
      }
    });
    done.get(10, TimeUnit.SECONDS);
    return seen;
  }

  @Test
  void healthIsUpWhileTheServerListensAndTheTargetConnects() {
    assertThat(health.healthForPath("boltServer").getStatus()).isEqualTo(Status.UP);
    assertThat(health.healthForPath("boltClients").getStatus()).isEqualTo(Status.UP);
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
  }
}
