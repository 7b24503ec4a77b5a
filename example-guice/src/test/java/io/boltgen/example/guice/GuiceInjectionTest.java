package io.boltgen.example.guice;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Provides;
import io.boltgen.runtime.BoltChannel;
import io.boltgen.runtime.BoltClient;
import io.boltgen.runtime.BoltServer;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A generated client injected by Guice through the generated {@code PricingBoltClientProvider}, calling a real
 * server (loopback, port 0) whose implementation Guice injects too. The modules below are docs/inject.md's
 * snippets: {@link #docsInjectShowsTheseModulesAsWritten} fails when the page and this file differ.
 */
class GuiceInjectionTest {

  /** The server application: the implementation comes from the injector, the server from a provider method. */
  static final class ServerModule extends AbstractModule {
    @Override
    protected void configure() {
      bind(Pricing.class).to(PriceList.class);
    }

    @Provides
    @Singleton
    BoltServer server(Pricing implementation) {
      return BoltServer.builder()
          .bind("127.0.0.1", 0)
          .service(PricingBolt.bind(implementation))
          .build()
          .start();
    }
  }

  /** The client application: {@code Pricing} comes from the generated provider, over the channel named for it. */
  static final class ClientModule extends AbstractModule {
    private final String pricingAddress;

    ClientModule(String pricingAddress) {
      this.pricingAddress = pricingAddress;
    }

    @Override
    protected void configure() {
      bind(Pricing.class).toProvider(PricingBoltClientProvider.class);
    }

    @Provides
    @Singleton
    BoltClient boltClient() {
      return BoltClient.builder().build();
    }

    @Provides
    @Singleton
    @Named(PricingBolt.SERVICE_NAME)
    BoltChannel pricingChannel(BoltClient client) {
      return client.channel(pricingAddress);
    }
  }

  @Test
  void anInjectedGeneratedClientCallsAServerExportingAnInjectedImplementation() {
    Injector serverSide = Guice.createInjector(new ServerModule());
    try (BoltServer server = serverSide.getInstance(BoltServer.class)) {
      Injector clientSide = Guice.createInjector(new ClientModule("127.0.0.1:" + server.port()));
      try (BoltClient client = clientSide.getInstance(BoltClient.class)) {
        Checkout checkout = clientSide.getInstance(Checkout.class);
        assertThat(checkout.total(List.of("apple", "pear"), 3)).isEqualTo(3 * 40 + 3 * 55);
        assertThat(checkout.unitPrice("pear")).isEqualTo(55);
        assertThat(checkout.unitPrice("plum")).isEqualTo(-1);
        // the client is the generated stub, made by the generated provider over the channel bound for the service
        assertThat(clientSide.getInstance(Pricing.class)).isInstanceOf(PricingBoltStub.class);
        assertThat(clientSide.getInstance(PricingBoltClientProvider.class).get()).isInstanceOf(PricingBoltStub.class);
        assertThat(client.connections()).isNotEmpty();
      }
    }
  }

  /** The {@code java} blocks of docs/inject.md: every code line is a line of this file. */
  @Test
  void docsInjectShowsTheseModulesAsWritten() throws IOException {
    String page = Files.readString(Path.of("..", "docs", "inject.md"), StandardCharsets.UTF_8);
    List<String> documented = new ArrayList<>();
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(page);
    while (block.find()) {
      for (String line : block.group(1).split("\n")) {
        String code = line.replaceAll("\\s*//.*$", "").strip();
        if (!code.isEmpty() && !code.equals("...")) {
          documented.add(code);
        }
      }
    }
    assertThat(documented).as("code lines of docs/inject.md").hasSizeGreaterThan(20);
    List<String> here = new ArrayList<>();
    for (Path source : List.of(Path.of("src", "test", "java", "io", "boltgen", "example", "guice",
        "GuiceInjectionTest.java"), Path.of("src", "main", "java", "io", "boltgen", "example", "guice",
        "Checkout.java"))) {
      for (String line : Files.readAllLines(source, StandardCharsets.UTF_8)) {
        here.add(line.replaceAll("\\s*//.*$", "").strip());
      }
    }
    assertThat(here).containsAll(documented);
  }
}
