package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static io.boltgen.processor.ValidationTest.source;
import static io.boltgen.processor.ValidationTest.svc;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import io.boltgen.annotation.BoltService;
import java.io.File;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.stream.Stream;
import java.net.URISyntaxException;
import java.util.List;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * What a team meets on its first day: a build with {@code -Xlint:all -Werror}, gRPC-style signatures,
 * module splits (the runtime missing, types declared where generated code cannot reach them), and one error
 * per mistake.
 */
class FirstDayTest {

  private static Compilation strict(JavaFileObject... sources) {
    return Compiler.javac().withProcessors(new BoltProcessor()).withOptions("-Xlint:all", "-Werror").compile(sources);
  }

  static String generated(Compilation c, String path) throws IOException {
    return c.generatedFile(StandardLocation.SOURCE_OUTPUT, path).orElseThrow().getCharContent(true).toString();
  }

  @Test
  void aServiceCompilesCleanUnderXlintAllAndWerror() {
    JavaFileObject svc = svc(
        "/** Orders. */",
        "@BoltService(name = \"shop.Orders\", version = \"1.0\")",
        "public interface Svc {",
        "  /** Places. */",
        "  @BoltMethod(timeoutMillis = 200) PlaceResponse place(PlaceRequest request);",
        "  /** Cancels. */",
        "  @Oneway void cancel(String id);",
        "  /** Looks up. */",
        "  @Idempotent PlaceResponse find(String id);",
        "}");
    // every annotation of bolt-annotations is used: the processor claims each
    Compilation c = strict(svc,
        source("test.PlaceRequest", "public record PlaceRequest(@BoltField(1) String sku, @BoltField(3) int n,",
            "    @BoltField(4) Kind kind, @BoltField(5) Pay pay) {}"),
        source("test.PlaceResponse", "@BoltMessage(reserved = 2) public record PlaceResponse(@BoltField(1) String id) {}"),
        source("test.Kind", "public enum Kind { @BoltEnumValue(0) NONE, @BoltEnumValue(7) SOME }"),
        source("test.Pay", "public sealed interface Pay permits Pay.Card, Pay.Cash {",
            "  @BoltField(2) record Card(String last4) implements Pay {}",
            "  @BoltField(1) record Cash() implements Pay {}", "}"));
    assertThat(c).succeededWithoutWarnings();
  }

  @Test
  void grpcStyleRequestAndResponseRecordsKeepTheirJavaNames() throws IOException {
    JavaFileObject svc = svc("@BoltService(name = \"shop.Orders\")", "public interface Svc {",
        "  PlaceResponse place(PlaceRequest request);", "}");
    Compilation c = strict(svc, source("test.PlaceRequest", "public record PlaceRequest(String sku) {}"),
        source("test.PlaceResponse", "public record PlaceResponse(String id) {}"));
    assertThat(c).succeededWithoutWarnings();
    String proto = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Svc.proto").orElseThrow()
        .getCharContent(true).toString();
    // the generated messages keep the names that reach the wire; the records give way in the .proto
    assertThat(proto).contains("rpc place (PlaceRequest) returns (PlaceResponse);")
        .contains("message PlaceRequest {\n  PlaceRequest_ request = 1;\n}")
        .contains("message PlaceResponse {\n  PlaceResponse_ value = 1;\n}")
        .contains("// Java: test.PlaceRequest\nmessage PlaceRequest_ {")
        .contains("// Java: test.PlaceResponse\nmessage PlaceResponse_ {");
    assertThat(generated(c, "test/SvcBolt.java"))
        .contains("public record PlaceRequest(test.PlaceRequest request)")
        .contains(".responseClassName(\"shop.orders.PlaceResponse\")");
  }

  @Test
  void aNameChosenByBoltMessageMustNotBeAGeneratedMessagesName() {
    JavaFileObject svc = svc("@BoltService", "interface Svc {", "  Out place(In in);",
        "  @BoltMessage(name = \"PlaceRequest\") record In(int a) {}", "  record Out(int b) {}", "}");
    Compilation c = ValidationTest.compile(svc);
    assertThat(c).hadErrorContaining("[Bolt/DuplicateMessageName] test.Svc.In is named PlaceRequest by"
        + " @BoltMessage(name), the name of the message generated for Svc.place(); choose another name")
        .inFile(svc).onLine(11);
    assertThat(c.errors()).hasSize(1);
  }

  @Test
  void overloadsWithDistinctWireNamesCompile() throws IOException {
    JavaFileObject svc = svc("@BoltService", "interface Svc {", "  String get(String name);",
        "  @BoltMethod(name = \"getById\") String get(long id);", "}");
    Compilation c = strict(svc);
    assertThat(c).succeededWithoutWarnings();
    assertThat(generated(c, "test/SvcBolt.java"))
        .contains("METHOD_GET =").contains("METHOD_GET_BY_ID =").contains("record GetByIdRequest(long id)");
  }

  @Test
  void anOverloadIsOneErrorWithTheRightAdvice() {
    JavaFileObject svc = svc("@BoltService", "interface Svc {", "  String get(String name);", "  String get(int id);",
        "}");
    Compilation c = ValidationTest.compile(svc);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/DuplicateMethodName]").inFile(svc).onLine(11);
    assertThat(c.errors().get(0).getMessage(null)).contains("set @BoltMethod(name = \"...\") on one of them")
        .doesNotContain("@BoltMethod(code)");
  }

  @Test
  void aBadServiceTimeoutIsReportedOnceNotOnEveryMethod() {
    JavaFileObject svc = svc("@BoltService(timeoutMillis = -5)", "interface Svc {", "  void a();", "  void b();",
        "  @BoltMethod(timeoutMillis = 100) void c();", "}");
    Compilation c = ValidationTest.compile(svc);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/InvalidTimeout] timeoutMillis must be 1..").inFile(svc).onLine(8);
  }

  @Test
  void anUnsupportedTypeDoesNotHideIndependentErrors() {
    JavaFileObject svc = svc("@BoltService", "interface Svc {", "  void a(Thread t);", "  @BoltMethod(name = \"1x\")",
        "  void b();", "  @BoltMethod(timeoutMillis = -1) void c();", "  String toString();", "}");
    Compilation c = ValidationTest.compile(svc);
    List<String> tags = c.errors().stream().map(d -> d.getMessage(null).substring(0, d.getMessage(null).indexOf(']') + 1))
        .toList();
    assertThat(tags).containsExactlyInAnyOrder("[Bolt/UnsupportedType]", "[Bolt/InvalidMethodName]",
        "[Bolt/InvalidTimeout]", "[Bolt/ReservedMethodName]");
  }

  @Test
  void aRecordSharedByServicesIsReportedOnce() {
    JavaFileObject bag = source("test.Bag", "public record Bag(@BoltField(1) int a, int b, int c) {}");
    JavaFileObject one = source("test.One", "@BoltService", "public interface One { void m(Bag b); Bag n(); }");
    JavaFileObject two = source("test.Two", "@BoltService", "public interface Two { void m(Bag b); }");
    Compilation c = ValidationTest.compile(bag, one, two);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/MissingFieldNumber] field numbers are all-or-nothing: other components"
        + " of Bag set @BoltField, so b, c need one too").inFile(bag).onLine(8);
  }

  @Test
  void aTypeInAnotherTypesFileIsOneErrorOnTheTypeWithTheFix() {
    JavaFileObject svc = svc("@BoltService", "interface Svc { Aux get(Aux a); void put(Aux a); }",
        "record Aux(int a) {}");
    JavaFileObject other = source("test.Other", "@BoltService", "interface Other { Aux get(); }");
    Compilation c = ValidationTest.compile(svc, other);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/UnreachableType] the record Aux is declared in Svc.java, a file named"
        + " after another type").inFile(svc).onLine(10);
    assertThat(c).hadErrorContaining("move Aux to Aux.java, or nest it in a type of Svc.java");
  }

  @Test
  void withoutTheRuntimeOnTheClassPathOneErrorSaysWhatToAdd() throws URISyntaxException {
    File annotations = new File(BoltService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    JavaFileObject a = source("test.A", "@BoltService", "public interface A { String get(String id); }");
    JavaFileObject b = source("test.B", "@BoltService", "public interface B { String get(String id); }");
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(List.of(annotations))
        .compile(a, b);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/RuntimeMissing] the code generated for @BoltService A calls"
        + " io.boltgen:bolt-runtime, which is not on this module's class path").inFile(a).onLine(9);
  }

  @Test
  void sealedInterfacesOfRecordsBecomeOneofsAndOtherSealedTypesAreRefused() {
    JavaFileObject ok = svc("@BoltService", "public interface Svc {", "  Shape area(Shape s, List<Shape> all);",
        "  sealed interface Shape permits Circle, Square {}", "  record Circle(double r) implements Shape {}",
        "  record Square(double side) implements Shape {}", "}");
    assertThat(strict(ok)).succeededWithoutWarnings();
    JavaFileObject notRecord = svc("@BoltService", "interface Svc {", "  void draw(Shape s);",
        "  sealed interface Shape permits Circle, Blob {}", "  record Circle(double r) implements Shape {}",
        "  final class Blob implements Shape {}", "}");
    Compilation c = ValidationTest.compile(notRecord);
    assertThat(c).hadErrorContaining("[Bolt/UnsupportedType] cannot serialize Svc.Shape (parameter s of draw()): the"
        + " sealed interface Shape permits Blob, which is not a record: every case of a oneof is a record")
        .inFile(notRecord).onLine(10);
    assertThat(c.errors()).hasSize(1);
    JavaFileObject generic = svc("@BoltService", "interface Svc {", "  void draw(Box<String> s);",
        "  sealed interface Box<T> permits Full {}", "  record Full(String t) implements Box<String> {}", "}");
    assertThat(ValidationTest.compile(generic)).hadErrorContaining("the sealed interface Box is generic")
        .inFile(generic).onLine(10);
    JavaFileObject pins = svc("@BoltService", "interface Svc {", "  void draw(Shape s);",
        "  sealed interface Shape permits Circle, Square {}", "  @BoltField(2) record Circle(double r) implements Shape {}",
        "  record Square(double side) implements Shape {}", "}");
    JavaFileObject stray = svc("@BoltService", "interface Svc {", "  void draw(Circle c);",
        "  @BoltField(2) record Circle(double r) {}", "}");
    assertThat(ValidationTest.compile(stray)).hadErrorContaining("[Bolt/InvalidFieldNumber] @BoltField on a record"
        + " pins its case number in the oneof of a sealed interface it implements, but Circle implements none")
        .inFile(stray).onLine(11);
    assertThat(ValidationTest.compile(pins)).hadErrorContaining("[Bolt/MissingFieldNumber] field numbers are"
        + " all-or-nothing: other cases of Svc_Shape set @BoltField, so square needs one too")
        .inFile(pins).onLine(13);
  }

  @Test
  void theProcessorClaimsEveryAnnotationOfBoltAnnotations() throws Exception {
    Path classes = Path.of(BoltService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> annotations = new ArrayList<>();
    try (FileSystem jar = classes.toString().endsWith(".jar") ? FileSystems.newFileSystem(classes) : null) {
      Path dir = (jar == null ? classes : jar.getPath("/")).resolve("io/boltgen/annotation");
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
          String simple = f.getFileName().toString().replace(".class", "");
          Class<?> c = Class.forName("io.boltgen.annotation." + simple, false,
              BoltService.class.getClassLoader());
          if (c.isAnnotation()) {
            annotations.add(c.getName());
          }
        }
      }
    }
    assertThat(annotations).hasSizeGreaterThanOrEqualTo(7).contains("io.boltgen.annotation.Idempotent");
    assertThat(new BoltProcessor().getSupportedAnnotationTypes()).containsAll(annotations);
  }
}
