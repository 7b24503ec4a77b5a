package io.boltgen.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.boltgen.runtime.CallOptions;
import io.boltgen.runtime.service.GeneratedService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;

/**
 * The configuration snippets of docs/spring.md and README.md, read as pasted: each properties, YAML and
 * environment-variable block is bound the way Spring Boot binds it (environment variables through the same
 * property source that maps real ones) and resolved against a service named as in the docs
 * ({@link io.boltgen.spring.docs.Inventory}); what each one configures is checked.
 */
class SpringDocsSnippetsTest {

  private static final Pattern BLOCK = Pattern.compile("```(properties|yaml|bash)\\n(.*?)```", Pattern.DOTALL);
  private static final Map<String, GeneratedService<?>> GENERATED =
      GeneratedServices.byName(SpringDocsSnippetsTest.class.getClassLoader());

  private record Block(String language, String text) {}

  private static List<Block> blocks(String file) throws IOException {
    String text = Files.readString(Path.of("..").resolve(file), StandardCharsets.UTF_8);
    List<Block> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      if (m.group(2).contains("boltgen.client") || m.group(2).contains("BOLTGEN_CLIENT")
          || m.group(2).contains("boltgen:")) {
        blocks.add(new Block(m.group(1), m.group(2)));
      }
    }
    return blocks;
  }

  private static ClientEntries.Client resolve(Block block) throws IOException {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(source(block));
    Binder binder = new Binder(ConfigurationPropertySources.from(environment.getPropertySources()));
    List<ClientEntries.Client> clients = ClientEntries.resolve(binder, GENERATED);
    assertThat(clients).as("the clients of%n%s", block.text()).hasSize(1);
    return clients.get(0);
  }

  private static PropertySource<?> source(Block block) throws IOException {
    return switch (block.language()) {
      case "properties" -> new MapPropertySource("snippet", keyValues(block.text()));
      // what Spring Boot makes of the process environment: the same relaxed mapping of names
      case "bash" -> new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
          keyValues(block.text()));
      case "yaml" -> new YamlPropertySourceLoader()
          .load("snippet", new ByteArrayResource(block.text().getBytes(StandardCharsets.UTF_8))).get(0);
      default -> throw new IllegalArgumentException(block.language());
    };
  }

  /** {@code key=value} lines. */
  private static Map<String, Object> keyValues(String text) {
    Map<String, Object> values = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      values.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return values;
  }

  @Test
  void everySnippetOfTheSpringDocsConfiguresDemoInventory() throws IOException {
    List<Block> blocks = blocks("docs/spring.md");
    assertThat(blocks).extracting(Block::language).contains("properties", "yaml", "bash");
    for (Block block : blocks) {
      ClientEntries.Client client = resolve(block);
      assertThat(client.name()).isEqualTo("demo.Inventory");
      if (client.target() != null && !client.target().startsWith("etcd:")) {
        assertThat(client.target()).as(block.text()).isEqualTo("inventory.internal:12200");
        assertThat(client.serviceOptions().timeoutMillis()).as(block.text()).isEqualTo(800);
      }
      if (block.text().contains("methods.report") || block.text().contains("METHODS_REPORT")) {
        assertThat(client.methodOptions().get("report").timeoutMillis()).isEqualTo(5000);
      }
      if (block.text().contains("methods.get.idempotent")) {
        CallOptions get = client.methodOptions().get("get");
        assertThat(get.idempotent()).isTrue();
        assertThat(get.maxAttempts()).isEqualTo(2);
        assertThat(get.timeoutMillis()).as("the service's").isEqualTo(800);
      }
    }
    assertThat(blocks).filteredOn(b -> b.language().equals("bash")).singleElement()
        .satisfies(b -> assertThat(resolve(b).keys()).containsExactly("inventory"));
  }

  @Test
  void theReadmeSnippetConfiguresDemoInventory() throws IOException {
    assertThat(blocks("README.md")).singleElement().satisfies(block -> {
      ClientEntries.Client client = resolve(block);
      assertThat(client.target()).isEqualTo("inventory.internal:12200");
      assertThat(client.serviceOptions().timeoutMillis()).isEqualTo(800);
    });
  }
}
