package io.boltgen.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.service.GeneratedService;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * How {@code boltgen.client.services} is read against the generated services on the class path (the sample's
 * {@code sample.Greeter}, and the docs' {@code demo.Inventory}): both spellings of an entry, merged entries, per-method settings and their precedence,
 * and the message of every mistake.
 */
class ClientEntriesTest {

  private static final Map<String, GeneratedService<?>> GENERATED =
      GeneratedServices.byName(ClientEntriesTest.class.getClassLoader());

  private static List<ClientEntries.Client> resolve(String... properties) {
    MapConfigurationPropertySource source = new MapConfigurationPropertySource();
    for (String p : properties) {
      int eq = p.indexOf('=');
      source.put(p.substring(0, eq), p.substring(eq + 1));
    }
    return ClientEntries.resolve(new Binder(source), GENERATED);
  }

  private static BoltClientConfigurationException failure(String... properties) {
    try {
      resolve(properties);
    } catch (BoltClientConfigurationException e) {
      return e;
    }
    throw new AssertionError("no failure for " + List.of(properties));
  }

  @Test
  void anEntryNamesItsServiceByItsKeyInBracketsOrByItsServiceProperty() {
    assertThat(resolve("boltgen.client.services[sample.Greeter].target=h:1")).singleElement()
        .satisfies(c -> {
          assertThat(c.name()).isEqualTo("sample.Greeter");
          assertThat(c.target()).isEqualTo("h:1");
          assertThat(c.serviceOptions()).isSameAs(CallOptions.DEFAULT);
        });
    // the form an environment variable reaches: BOLTGEN_CLIENT_SERVICES_GREETER_SERVICE / _TARGET
    assertThat(resolve("boltgen.client.services.greeter.service=sample.Greeter",
        "boltgen.client.services.greeter.target=h:2")).singleElement()
        .satisfies(c -> {
          assertThat(c.name()).isEqualTo("sample.Greeter");
          assertThat(c.target()).isEqualTo("h:2");
          assertThat(c.keys()).containsExactly("greeter");
        });
  }

  @Test
  void entriesOfOneServiceMergeAndTwoValuesForOneSettingFail() {
    assertThat(resolve("boltgen.client.services[sample.Greeter].timeout=2s",
        "boltgen.client.services.greeter.service=sample.Greeter",
        "boltgen.client.services.greeter.target=h:1")).singleElement()
        .satisfies(c -> {
          assertThat(c.target()).isEqualTo("h:1");
          assertThat(c.serviceOptions().timeoutMillis()).isEqualTo(2000);
        });

    BoltClientConfigurationException e = failure("boltgen.client.services[sample.Greeter].target=h:1",
        "boltgen.client.services.greeter.service=sample.Greeter", "boltgen.client.services.greeter.target=h:2");
    assertThat(e.description()).contains("boltgen.client.services[sample.Greeter].target is h:1")
        .contains("boltgen.client.services[greeter].target is h:2");
  }

  @Test
  void methodSettingsGoOverTheServicesAndFindTheMethodInAnyCase() {
    ClientEntries.Client client = resolve("boltgen.client.services[sample.Greeter].target=h:1",
        "boltgen.client.services[sample.Greeter].timeout=2s",
        "boltgen.client.services[sample.Greeter].max-attempts=2",
        "boltgen.client.services[sample.Greeter].methods.greetSlowly.timeout=150ms",
        "boltgen.client.services[sample.Greeter].methods.greet.idempotent=true",
        "boltgen.client.services[sample.Greeter].methods.greet.max-attempts=4").get(0);

    CallOptions slowly = client.methodOptions().get("greetSlowly");
    assertThat(slowly.timeoutMillis()).isEqualTo(150);
    assertThat(slowly.maxAttempts()).as("the service's").isEqualTo(2);
    assertThat(slowly.idempotent()).as("the method's own @Idempotent").isNull();
    CallOptions greet = client.methodOptions().get("greet");
    assertThat(greet.timeoutMillis()).as("the service's").isEqualTo(2000);
    assertThat(greet.maxAttempts()).isEqualTo(4);
    assertThat(greet.idempotent()).isTrue();

    // an environment variable's spelling, lower case, and kebab case find the method too
    assertThat(resolve("boltgen.client.services.greeter.service=sample.Greeter",
        "boltgen.client.services.greeter.methods.greetslowly.timeout=1s",
        "boltgen.client.services.greeter.methods.greet.timeout=2s").get(0).methodOptions())
        .containsOnlyKeys("greetSlowly", "greet");
    assertThat(resolve("boltgen.client.services[sample.Greeter].methods.greet-slowly.timeout=1s").get(0)
        .methodOptions()).containsOnlyKeys("greetSlowly");
  }

  @Test
  void aWrongCaseNameGetsTheNearMissAndNoBracketHintSinceItWasInBrackets() {
    BoltClientConfigurationException e = failure("boltgen.client.services[sample.greeter].target=h:1");
    assertThat(e.description()).contains("'sample.greeter'").contains("[demo.Inventory, sample.Greeter]");
    assertThat(e.action()).contains("Did you mean sample.Greeter?").doesNotContain("brackets")
        .doesNotContain("demo.Inventory");
  }

  @Test
  void aDottedNameWithoutBracketsGetsBothSpellingsOfTheUsersOwnService() {
    BoltClientConfigurationException e = failure("boltgen.client.services.sample.Greeter.target=h:1");
    assertThat(e.description()).contains("entry 'sample'");
    assertThat(e.action()).contains("boltgen.client.services[sample.Greeter].target")
        .contains("boltgen.client.services.greeter.service=sample.Greeter");
  }

  @Test
  void aKeyThatIsAServicesSimpleNameIsToldToNameTheService() {
    BoltClientConfigurationException e = failure("boltgen.client.services.greeter.target=h:1");
    assertThat(e.action()).contains("Did you mean sample.Greeter?")
        .contains("boltgen.client.services.greeter.service=sample.Greeter")
        .contains("BOLTGEN_CLIENT_SERVICES_GREETER_SERVICE=sample.Greeter");

    BoltClientConfigurationException wrongService = failure("boltgen.client.services.greeter.service=sample.Greeters");
    assertThat(wrongService.description()).contains("boltgen.client.services.greeter.service is 'sample.Greeters'");
    assertThat(wrongService.action()).contains("Did you mean sample.Greeter?");

    BoltClientConfigurationException unknown = failure("boltgen.client.services[shop.Catalog].target=h:1");
    assertThat(unknown.description()).contains("'shop.Catalog'").contains("[demo.Inventory, sample.Greeter]");
  }

  @Test
  void anUnknownMethodOrValueFailsNamingTheProperty() {
    BoltClientConfigurationException method =
        failure("boltgen.client.services[sample.Greeter].methods.greetSlow.timeout=1s");
    assertThat(method.description())
        .contains("boltgen.client.services[sample.Greeter].methods.greetSlow names no method of sample.Greeter")
        .contains("[greet, greetSlowly, greetEachWord, greetAll, greetEach]");
    assertThat(method.action()).contains("Did you mean greetSlowly?");

    assertThat(failure("boltgen.client.services[sample.Greeter].methods.greet.timeout=0s").description())
        .contains("boltgen.client.services[sample.Greeter].methods.greet.timeout is PT0S");
    assertThat(failure("boltgen.client.services[sample.Greeter].max-attempts=0").description())
        .contains("boltgen.client.services[sample.Greeter].max-attempts is 0");
  }
}
