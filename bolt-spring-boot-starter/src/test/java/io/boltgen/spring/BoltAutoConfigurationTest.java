package io.boltgen.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import io.boltgen.spring.sample.Gate;
import io.boltgen.spring.sample.Greeter;
import io.boltgen.spring.sample.GreeterService;
import io.boltgen.spring.sample.GreeterStreams;
import io.boltgen.spring.sample.Greeting;
import io.boltgen.spring.sample.Name;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The conditions of the auto-configuration: which beans exist for which properties and user beans. */
class BoltAutoConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(BoltClientAutoConfiguration.class,
          BoltServerAutoConfiguration.class, BoltHealthAutoConfiguration.class));

  /** Implements the service, but is neither annotated nor listed: never exported. */
  static class PlainGreeter extends GreeterStreams {
    @Override
    public Greeting greet(Name name) {
      return new Greeting("plain");
    }

    @Override
    public Greeting greetSlowly(Name name) {
      return greet(name);
    }
  }

  /** Opted in, but implements no service. */
  @BoltExport
  static class NotAService {}

  private static Throwable innermost(Throwable failure) {
    assertThat(failure).as("startup failure").isNotNull();
    Throwable cause = failure;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  @Test
  void withoutATargetThereIsNoClientBean() {
    runner.run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(Greeter.class).hasSingleBean(BoltClient.class);
      assertThat(context).doesNotHaveBean(BoltServer.class).doesNotHaveBean(BoltServerLifecycle.class);
      assertThat(context).doesNotHaveBean(BoltServerHealthIndicator.class);
    });
  }

  @Test
  void aTargetInBracketsMakesOneClientBeanTypedAsTheInterface() {
    runner.withPropertyValues("boltgen.client.services[sample.Greeter].target=127.0.0.1:1")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(Greeter.class).hasBean("sample.Greeter");
          assertThat(context.getBean(Greeter.class)).isNotInstanceOf(GreeterService.class);
        });
  }

  @Test
  void anEntryWithoutATargetMakesNoBean() {
    runner.withPropertyValues("boltgen.client.services[sample.Greeter].timeout=1s")
        .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(Greeter.class));
  }

  @Test
  void aServiceNameWithoutBracketsFailsAndSaysHowToWriteIt() {
    runner.withPropertyValues("boltgen.client.services.sample.Greeter.target=127.0.0.1:1")
        .run(context -> assertThat(innermost(context.getStartupFailure()))
            .hasMessageContaining("'sample'").hasMessageContaining("brackets")
            .hasMessageContaining("sample.Greeter"));
  }

  /** A bean that needs the client at startup. */
  static class NeedsGreeter {
    NeedsGreeter(Greeter greeter) {}
  }

  /** A bean that needs something that is no boltgen service. */
  static class NeedsRunnable {
    NeedsRunnable(Runnable runnable) {}
  }

  @Test
  void aMissingClientIsAnalysedWithThePropertyToSetAndOtherMissingBeansAreLeftToSpringBoot() {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(
        new MapPropertySource("test", Map.of("boltgen.client.services[sample.Greeter].timeout", "1s")));
    MissingBoltClientFailureAnalyzer analyzer = new MissingBoltClientFailureAnalyzer(environment);

    runner.withPropertyValues("boltgen.client.services[sample.Greeter].timeout=1s")
        .withBean(NeedsGreeter.class)
        .run(context -> {
          FailureAnalysis analysis = analyzer.analyze(context.getStartupFailure());
          assertThat(analysis).isNotNull();
          assertThat(analysis.getDescription()).contains("needs a io.boltgen.spring.sample.Greeter")
              .contains("boltgen.client.services gives sample.Greeter no target")
              .contains("Configured there: [sample.Greeter] without a target.");
          assertThat(analysis.getAction()).contains("boltgen.client.services[sample.Greeter].target=host:port")
              .contains("BOLTGEN_CLIENT_SERVICES_GREETER_TARGET=host:port");
        });
    runner.withBean(NeedsRunnable.class)
        .run(context -> assertThat(analyzer.analyze(context.getStartupFailure())).isNull());
  }

  @Test
  void aConfigurationMistakeIsAnalysedWithItsOwnDescriptionAndAction() {
    runner.withPropertyValues("boltgen.client.services[sample.greeter].target=127.0.0.1:1")
        .run(context -> {
          FailureAnalysis analysis = new BoltClientConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).contains("'sample.greeter'");
          assertThat(analysis.getAction()).isEqualTo("Did you mean sample.Greeter? Service names are case-sensitive.");
        });
  }

  @Test
  void clientWideSettingsAreBound() {
    runner.withPropertyValues("boltgen.client.protocol=v1", "boltgen.client.connect-timeout=250ms",
            "boltgen.client.connections-per-address=2")
        .run(context -> {
          assertThat(context).hasNotFailed();
          BoltClientProperties properties = context.getBean(BoltClientProperties.class);
          assertThat(properties.getProtocol()).isEqualTo(io.boltgen.runtime.WireProtocol.V1);
          assertThat(properties.getConnectTimeout()).hasMillis(250);
          assertThat(properties.getConnectionsPerAddress()).isEqualTo(2);
        });
  }

  @Test
  void aUserDefinedClientWins() {
    BoltClient mine = BoltClient.builder().build();
    try {
      runner.withBean("myClient", BoltClient.class, () -> mine)
          .withPropertyValues("boltgen.client.services[sample.Greeter].target=127.0.0.1:1")
          .run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BoltClient.class).hasBean("myClient");
            assertThat(context.getBean(BoltClient.class)).isSameAs(mine);
            assertThat(context).hasSingleBean(Greeter.class);
          });
    } finally {
      mine.close();
    }
  }

  @Test
  void anImplementationThatIsNotOptedInIsNotExported() {
    runner.withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0")
        .withBean(PlainGreeter.class)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(BoltServer.class);
          assertThat(context.getBean(BoltServerLifecycle.class).services()).isEmpty();
          assertThat(context).hasSingleBean(BoltServerHealthIndicator.class);
        });
  }

  @Test
  void anAnnotatedImplementationIsExported() {
    runner.withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0")
        .withBean(GreeterService.class, () -> new GreeterService(new Gate()))
        .run(context -> {
          assertThat(context).hasNotFailed();
          BoltServerLifecycle lifecycle = context.getBean(BoltServerLifecycle.class);
          assertThat(lifecycle.services()).containsExactly("sample.Greeter");
          assertThat(lifecycle.isRunning()).isTrue();
          assertThat(context.getEnvironment().getProperty(BoltServerLifecycle.LOCAL_PORT_PROPERTY, Integer.class))
              .isEqualTo(lifecycle.server().port());
        });
  }

  @Test
  void aListedServiceIsExportedFromItsImplementationNotFromItsClient() {
    runner.withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0",
            "boltgen.server.services=sample.Greeter",
            "boltgen.client.services[sample.Greeter].target=127.0.0.1:${local.boltgen.server.port}")
        .withBean(PlainGreeter.class)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(BoltServerLifecycle.class).services()).containsExactly("sample.Greeter");
          Greeter client = context.getBean("sample.Greeter", Greeter.class);
          assertThat(client.greet(new Name("x"))).isEqualTo(new Greeting("plain"));
        });
  }

  @Test
  void aRegistryBeanRegistersTheExportsAndResolvesClusterTargets() {
    SharedMemoryRegistry registry = new SharedMemoryRegistry();
    runner.withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0",
            "boltgen.client.services[sample.Greeter].target=mem:///sample.Greeter:1.0")
        .withBean(SharedMemoryRegistry.class, () -> registry)
        .withBean(GreeterService.class, () -> new GreeterService(new Gate()))
        .run(context -> {
          assertThat(context).hasNotFailed();
          int port = context.getBean(BoltServerLifecycle.class).server().port();
          assertThat(registry.instances("sample.Greeter:1.0")).singleElement()
              .satisfies(i -> assertThat(i.address().getPort()).isEqualTo(port));
          Greeter client = context.getBean("sample.Greeter", Greeter.class);
          assertThat(client.greet(new Name("mem")).text()).contains("mem");
          assertThat(context.getBean(BoltClientsHealthIndicator.class).health().getDetails().toString())
              .contains("instances=1");
        });
    assertThat(registry.instances("sample.Greeter:1.0")).as("deregistered when the context closed").isEmpty();
  }

  @Test
  void anOptedInBeanWithoutAServiceFailsTheStartup() {
    runner.withPropertyValues("boltgen.server.port=0").withBean(NotAService.class)
        .run(context -> assertThat(innermost(context.getStartupFailure()))
            .hasMessageContaining("@BoltExport").hasMessageContaining("implements none"));
  }

  @Test
  void aUserDefinedServerIsLeftAlone() {
    BoltServer mine = BoltServer.builder().bind("127.0.0.1", 0).build();
    try {
      runner.withPropertyValues("boltgen.server.port=0")
          .withBean("myServer", BoltServer.class, () -> mine)
          .run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(BoltServer.class).hasBean("myServer");
            assertThat(context).doesNotHaveBean(BoltServerLifecycle.class)
                .doesNotHaveBean(BoltServerHealthIndicator.class);
          });
    } finally {
      mine.close();
    }
  }

  @Test
  void healthContributorsCanBeTurnedOff() {
    runner.withPropertyValues("boltgen.server.host=127.0.0.1", "boltgen.server.port=0",
            "management.health.bolt.enabled=false")
        .run(context -> assertThat(context).hasNotFailed()
            .doesNotHaveBean(BoltServerHealthIndicator.class).doesNotHaveBean(BoltClientsHealthIndicator.class));
  }
}
