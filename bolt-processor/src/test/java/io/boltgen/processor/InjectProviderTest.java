package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static io.boltgen.processor.ValidationTest.source;
import static io.boltgen.processor.ValidationTest.svc;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * {@code XxxBoltClientProvider}, the {@code jakarta.inject.Provider} of client stubs: generated when
 * jakarta.inject is on the class path of the compilation, and only then. jakarta.inject is not a test
 * dependency of this module (every other compilation here, the goldens' included, runs without it); the
 * build copies its jar to {@code target/inject} and the compilations below add it to the class path.
 */
class InjectProviderTest {

  /** The test class path plus jakarta.inject-api. */
  static List<File> classPathWithInject() {
    List<File> classPath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classPath.add(new File(entry));
    }
    File inject = new File(System.getProperty("boltgen.jakartaInject", "target/inject/jakarta.inject-api.jar"));
    assertThat(inject).as("jakarta.inject-api, copied by the build (mvn generate-test-resources)").isFile();
    classPath.add(inject);
    return classPath;
  }

  /**
   * As {@code FirstDayTest.strict}, with jakarta.inject on the class path and javac's {@code processing} lint
   * off: it reports the {@code @Inject} of the generated provider (and of any class) as claimed by no processor.
   */
  static Compilation strictWithInject(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(classPathWithInject())
        .withOptions("-Xlint:all", "-Xlint:-processing", "-Werror").compile(sources);
  }

  private static String text(Compilation c, String name) throws IOException {
    return c.generatedSourceFile(name).orElseThrow().getCharContent(true).toString();
  }

  @Test
  void withJakartaInjectEveryServiceGetsAProviderOfClientsThatCompilesCleanUnderWerror() throws IOException {
    JavaFileObject orders = svc("/** Orders. */", "@BoltService(name = \"shop.Orders\", version = \"2.0\")",
        "public interface Svc {", "  String place(String sku);", "}");
    // a nested interface, and one that is deprecated: the provider must not warn about either
    JavaFileObject outer = source("test.Outer", "public final class Outer {", "  private Outer() {}",
        "  /** Deprecated. */", "  @Deprecated @BoltService(name = \"shop.Old\")", "  public interface Api {",
        "    void ping();", "  }", "}");
    // an application class injected the way a container does it: it compiles against the generated provider
    JavaFileObject app = source("test.App", "public final class App {",
        "  final Svc svc;", "  @jakarta.inject.Inject", "  App(Svc svc) {", "    this.svc = svc;", "  }",
        "  static jakarta.inject.Provider<Svc> provider(io.boltgen.runtime.BoltChannel channel) {",
        "    return new SvcBoltClientProvider(channel);", "  }", "}");
    Compilation c = strictWithInject(orders, outer, app);
    assertThat(c).succeededWithoutWarnings();
    assertThat(text(c, "test.SvcBoltClientProvider"))
        .contains("@Generated(\"io.boltgen.processor.BoltProcessor\")\n"
            + "public final class SvcBoltClientProvider implements Provider<Svc> {")
        .contains("  private final BoltChannel channel;")
        .contains("  @Inject\n  public SvcBoltClientProvider(@Named(SvcBolt.SERVICE_NAME) BoltChannel channel) {\n"
            + "    this.channel = channel;\n  }")
        .contains("  @Override\n  public Svc get() {\n    return SvcBolt.newClient(channel);\n  }")
        .contains("import jakarta.inject.Inject;", "import jakarta.inject.Named;", "import jakarta.inject.Provider;")
        .contains("{@code @Named(\"shop.Orders\")}")
        .doesNotContain("javax.inject");
    assertThat(text(c, "test.Outer_ApiBoltClientProvider"))
        .contains("@SuppressWarnings(\"deprecation\")")
        .contains("public final class Outer_ApiBoltClientProvider implements Provider<Outer.Api> {")
        .contains("@Named(Outer_ApiBolt.SERVICE_NAME) BoltChannel channel");
  }

  @Test
  void underXlintAllTheOnlyDiagnosticIsJavacsUnclaimedJakartaInjectAnnotations() {
    JavaFileObject orders = svc("@BoltService(name = \"shop.Orders\")", "public interface Svc {",
        "  String place(String sku);", "}");
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(classPathWithInject())
        .withOptions("-Xlint:all").compile(orders);
    assertThat(c).succeeded();
    // the processor does not claim @Inject and @Named: DI processors declared after it (Dagger) must see it
    assertThat(c.warnings()).singleElement().extracting(d -> d.getMessage(null)).asString()
        .startsWith("No processor claimed any of these annotations: ").contains("jakarta.inject.Inject")
        .doesNotContain("io.boltgen");
    // -Aboltgen.inject=false: nothing extra, clean under -Xlint:all -Werror
    Compilation off = Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(classPathWithInject())
        .withOptions("-Xlint:all", "-Werror", "-Aboltgen.inject=false").compile(orders);
    assertThat(off).succeededWithoutWarnings();
    assertThat(off.generatedSourceFile("test.SvcBoltClientProvider")).isEmpty();
    assertThat(off.generatedSourceFiles()).hasSize(6);
  }

  @Test
  void withoutJakartaInjectNoProviderOfClientsIsGenerated() {
    JavaFileObject orders = svc("@BoltService(name = \"shop.Orders\")", "public interface Svc {",
        "  String place(String sku);", "}");
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withOptions("-Xlint:all", "-Werror")
        .compile(orders);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c.generatedSourceFile("test.SvcBolt")).isPresent();
    assertThat(c.generatedSourceFile("test.SvcBoltProvider")).isPresent();
    assertThat(c.generatedSourceFile("test.SvcBoltClientProvider")).isEmpty();
    assertThat(c.generatedSourceFiles()).hasSize(6);
  }

  @Test
  void aUserTypeNamedLikeTheProviderOfClientsIsAClash() {
    JavaFileObject f = svc("@BoltService", "interface Svc { void m(); }", "class SvcBoltClientProvider {}");
    Compilation with = strictWithInject(f);
    assertThat(with).hadErrorContaining("[Bolt/GeneratedNameClash] cannot generate test.SvcBoltClientProvider for"
        + " @BoltService Svc: a type of that name already exists; rename it or the interface").inFile(f).onLine(9);
    assertThat(with.errors()).hasSize(1);
    // the name is reserved without jakarta.inject too: adding the dependency later must not break the build
    Compilation without = ValidationTest.compile(f);
    assertThat(without).hadErrorContaining("[Bolt/GeneratedNameClash] cannot generate test.SvcBoltClientProvider"
        + " for @BoltService Svc: a type of that name already exists (the name is reserved for the jakarta.inject"
        + " provider generated when jakarta.inject is on the class path)").inFile(f).onLine(9);
    assertThat(without.errors()).hasSize(1);
  }
}
