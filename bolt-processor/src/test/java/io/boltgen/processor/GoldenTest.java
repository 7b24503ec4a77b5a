package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import javax.tools.FileObject;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * Golden files: the generated sources, {@code .proto}, OpenAPI document and service registration of one representative
 * service ({@code src/test/resources/golden/input/demo}) must match
 * {@code src/test/resources/golden/expected} byte for byte.
 *
 * <p>After an intended change of the generated code, regenerate the goldens and review the diff:
 * <pre>mvn -pl bolt-processor test -Dtest='GoldenTest,SofaRpcGoldenTest' -Dboltgen.updateGoldens=true</pre>
 */
class GoldenTest {

  private static final List<String> INPUTS =
      List.of("Inventory", "SkuId", "Stock", "StockState", "Reservation", "AuditEvent", "OutOfStockException");
  private static final List<String> GENERATED =
      List.of("InventoryBolt", "InventoryBoltStub", "InventoryBoltSkeleton", "InventoryBoltCodecs", "InventoryBoltJson",
          "InventoryBoltProvider");

  @Test
  void generatedCodeMatchesTheGoldenFiles() throws IOException {
    JavaFileObject[] sources = INPUTS.stream()
        .map(name -> JavaFileObjects.forSourceString("demo." + name, resource("input/demo/" + name + ".java.txt")))
        .toArray(JavaFileObject[]::new);
    Compilation c = ValidationTest.compile(sources);
    assertThat(c).succeededWithoutWarnings();
    for (String name : GENERATED) {
      JavaFileObject file = c.generatedSourceFile("demo." + name).orElseThrow();
      check("expected/demo/" + name + ".java.txt", file.getCharContent(true).toString());
    }
    FileObject proto = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/demo.Inventory.proto")
        .orElseThrow();
    check("expected/META-INF/boltgen/demo.Inventory.proto", proto.getCharContent(true).toString());
    FileObject openApi = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/demo.Inventory.openapi.json")
        .orElseThrow();
    check("expected/META-INF/boltgen/demo.Inventory.openapi.json", openApi.getCharContent(true).toString());
    FileObject services = c.generatedFile(StandardLocation.CLASS_OUTPUT,
        "META-INF/services/io.boltgen.runtime.service.GeneratedService").orElseThrow();
    check("expected/META-INF/services/io.boltgen.runtime.service.GeneratedService",
        new String(services.openInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  /**
   * With jakarta.inject on the class path the same service also gets {@code InventoryBoltClientProvider}
   * (golden file of its own), and every other file is byte for byte what it is without jakarta.inject.
   */
  @Test
  void withJakartaInjectOnlyTheProviderOfClientsIsAdded() throws IOException {
    JavaFileObject[] sources = INPUTS.stream()
        .map(name -> JavaFileObjects.forSourceString("demo." + name, resource("input/demo/" + name + ".java.txt")))
        .toArray(JavaFileObject[]::new);
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
        .withClasspath(InjectProviderTest.classPathWithInject())
        .withOptions("-Xlint:all", "-Xlint:-processing").compile(sources);
    assertThat(c).succeededWithoutWarnings();
    check("expected/demo/InventoryBoltClientProvider.java.txt", text(c, "InventoryBoltClientProvider"));
    for (String name : GENERATED) {
      assertThat(text(c, name)).as(name).isEqualTo(resource("expected/demo/" + name + ".java.txt"));
    }
    assertThat(c.generatedSourceFiles()).hasSize(GENERATED.size() + 1);
  }

  @Test
  void outputIsDeterministic() {
    JavaFileObject[] sources = INPUTS.stream()
        .map(name -> JavaFileObjects.forSourceString("demo." + name, resource("input/demo/" + name + ".java.txt")))
        .toArray(JavaFileObject[]::new);
    Compilation first = ValidationTest.compile(sources);
    Compilation second = ValidationTest.compile(sources);
    for (String name : GENERATED) {
      assertThat(text(second, name)).isEqualTo(text(first, name));
    }
  }

  private static String text(Compilation c, String name) {
    try {
      return c.generatedSourceFile("demo." + name).orElseThrow().getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void check(String golden, String actual) throws IOException {
    if (Boolean.getBoolean("boltgen.updateGoldens")) {
      Path path = Paths.get(System.getProperty("boltgen.goldenDir", "src/test/resources/golden"), golden);
      Files.createDirectories(path.getParent());
      Files.writeString(path, actual, StandardCharsets.UTF_8);
      return;
    }
    assertThat(actual).as("%s (regenerate with -Dboltgen.updateGoldens=true)", golden).isEqualTo(resource(golden));
  }

  static String resource(String path) {
    try (InputStream in = GoldenTest.class.getResourceAsStream("/golden/" + path)) {
      if (in == null) {
        throw new IllegalStateException("missing golden file golden/" + path
            + "; generate it with -Dboltgen.updateGoldens=true");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
