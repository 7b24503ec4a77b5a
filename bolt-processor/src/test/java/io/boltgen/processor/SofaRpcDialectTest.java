package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static io.boltgen.processor.ValidationTest.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@code @SofaRpcService}: each broken one gives exactly its tagged error, on the element to change,
 * and nothing is generated for that service; services that keep them compile (generated code included) without a
 * warning under {@code -Xlint:all}, however their records are shaped.
 */
class SofaRpcDialectTest {

  private static final String HESSIAN = "@SofaRpcService(interfaceName = \"com.example.Svc\")";
  private static final String PROTOBUF =
      "@SofaRpcService(interfaceName = \"com.example.Svc\", serializer = SofaRpcService.Serializer.PROTOBUF)";

  private static JavaFileObject person() {
    return source("test.Person", "public record Person(String name, int age) {}");
  }

  private static JavaFileObject reply() {
    return source("test.Reply", "public record Reply(String text) {}");
  }

  /**
   * Compiles {@code sources} and asserts exactly one error, {@code [Bolt/tag]} with {@code message}, on
   * {@code line} of {@code file}, and that nothing was generated for {@code test.Svc}.
   */
  private static void assertOnlyError(JavaFileObject file, int line, String tag, String message,
      JavaFileObject... sources) {
    Compilation c = ValidationTest.compile(sources);
    assertThat(c).failed();
    assertThat(c.errors()).as("errors: %s", c.errors()).hasSize(1);
    assertThat(c).hadErrorContainingMatch("\\[Bolt/" + tag + "\\] (.*)" + Pattern.quote(message)).inFile(file)
        .onLine(line);
    assertThat(generatedSources(sources)).as("generated for a refused service").noneMatch(f -> f.contains("SvcBolt"));
  }

  /**
   * The source files the processor writes for {@code sources} even when the compilation fails (compile-testing
   * shows none then): javac with the processor only, writing to a temporary directory.
   */
  static List<String> generatedSources(JavaFileObject... sources) {
    try {
      Path out = Files.createTempDirectory("sofarpc-dialect");
      try {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> ignored = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(ignored, null, StandardCharsets.UTF_8)) {
          files.setLocationFromPaths(StandardLocation.SOURCE_OUTPUT, List.of(out));
          files.setLocationFromPaths(StandardLocation.CLASS_OUTPUT, List.of(out));
          JavaCompiler.CompilationTask task = javac.getTask(null, files, ignored,
              List.of("-proc:only", "-classpath", System.getProperty("java.class.path")), null, List.of(sources));
          task.setProcessors(List.of(new BoltProcessor()));
          task.call();
        }
        try (Stream<Path> walk = Files.walk(out)) {
          return walk.filter(f -> f.toString().endsWith(".java")).map(f -> out.relativize(f).toString()).sorted()
              .toList();
        }
      } finally {
        try (Stream<Path> walk = Files.walk(out)) {
          walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void generatedSourcesSeesWhatAValidServiceGenerates() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc { String hi(); }");
    assertThat(generatedSources(svc)).contains("test/SvcBolt.java", "test/SvcBoltSofaRpc.java");
  }

  private static String text(Compilation c, String name) {
    try {
      return c.generatedSourceFile(name).orElseThrow().getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ the service annotation

  @Test
  void withoutBoltSofaRpcOnTheClassPathOneErrorSaysWhatToAdd() throws Exception {
    String module = new java.io.File(io.boltgen.sofarpc.SofaRpc.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI()).getPath();
    List<java.io.File> withoutIt = Stream.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
        .filter(entry -> !entry.equals(module)).map(java.io.File::new).toList();
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc { String hi(); }");
    Compilation c = com.google.testing.compile.Compiler.javac().withProcessors(new BoltProcessor())
        .withClasspath(withoutIt).compile(svc);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/SofaRpcRuntimeMissing] the code generated for @SofaRpcService Svc calls"
        + " io.boltgen:bolt-sofarpc, which is not on this module's class path").inFile(svc).onLine(9);
  }

  @Test
  void interfaceNameMustBeAJavaName() {
    JavaFileObject svc = source("test.Svc",
        "@BoltService",
        "@SofaRpcService(",
        "    interfaceName = \"com.example.Not A Name\")",
        "public interface Svc { String hi(String name); }");
    assertOnlyError(svc, 10, "InvalidSofaRpcService",
        "interfaceName \"com.example.Not A Name\" is not a Java interface name", svc);
  }

  @Test
  void versionMustNotBeEmptyNorHoldAColon() {
    for (String attrs : List.of("version = \"\"", "version = \"1:0\"", "uniqueId = \"a:b\"")) {
      JavaFileObject svc = source("test.Svc",
          "@BoltService",
          "@SofaRpcService(interfaceName = \"com.example.Svc\", " + attrs + ")",
          "public interface Svc { String hi(String name); }");
      assertOnlyError(svc, 9, "InvalidSofaRpcService",
          "a SOFARPC version must not be empty, and neither it nor the uniqueId may contain ':'", svc);
    }
  }

  @Test
  void aStreamingMethodIsRefused() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN,
        "public interface Svc { Flow.Publisher<Reply> replies(Person person); }");
    assertOnlyError(svc, 10, "UnsupportedSofaRpcMethod", "SOFARPC's bolt protocol carries one request and one"
        + " answer per call: replies cannot return a Flow.Publisher in a @SofaRpcService", svc, person(), reply());
    JavaFileObject requests = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {"
        + " java.util.concurrent.CompletableFuture<Reply> tally(Flow.Publisher<Person> people); }");
    assertOnlyError(requests, 10, "UnsupportedSofaRpcMethod", "SOFARPC's bolt protocol carries one request and one"
        + " answer per call: tally cannot take a Flow.Publisher in a @SofaRpcService", requests, person(), reply());
  }

  @Test
  void sofaRpcClassMustBeAJavaName() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc { Person get(int id); }");
    JavaFileObject person = source("test.Person",
        "@SofaRpcClass(\"com.example.1Person\")",
        "public record Person(String name) {}");
    assertOnlyError(person, 8, "InvalidSofaRpcClass",
        "\"com.example.1Person\" is not a Java class name", svc, person);
  }

  // ------------------------------------------------------------------ protobuf

  @Test
  void protobufMethodsTakeExactlyOneRecord() {
    for (String method : List.of("Reply two(Person a, Person b);", "Reply text(String name);", "Reply none();")) {
      JavaFileObject svc = source("test.Svc", "@BoltService", PROTOBUF, "public interface Svc {",
          "  " + method, "}");
      assertOnlyError(svc, 11, "UnsupportedSofaRpcMethod",
          "SOFARPC's protobuf serializer sends exactly one argument, a message", svc, person(), reply());
    }
  }

  @Test
  void protobufMethodsReturnARecordOrAreOneway() {
    for (String method : List.of("String text(Person p);", "void nothing(Person p);",
        "CompletableFuture<List<Reply>> later(Person p);")) {
      JavaFileObject svc = source("test.Svc", "@BoltService", PROTOBUF, "public interface Svc {",
          "  " + method, "}");
      assertOnlyError(svc, 11, "UnsupportedSofaRpcMethod",
          "SOFARPC's protobuf serializer answers with a message", svc, person(), reply());
    }
  }

  @Test
  void protobufRefusesAOneofArgument() {
    JavaFileObject svc = source("test.Svc", "@BoltService", PROTOBUF, "public interface Svc {",
        "  Reply pick(Shape shape);", "}");
    JavaFileObject shape = source("test.Shape",
        "public sealed interface Shape {",
        "  record Circle(double r) implements Shape {}",
        "  record Square(double side) implements Shape {}",
        "}");
    assertOnlyError(svc, 11, "UnsupportedSofaRpcMethod",
        "must take one record", svc, shape, reply());
  }

  @Test
  void validProtobufServiceCompilesWithoutWarnings() {
    JavaFileObject svc = source("test.Svc", "@BoltService", PROTOBUF, "public interface Svc {",
        "  Reply greet(Person p);",
        "  CompletableFuture<Reply> later(Person p);",
        "  void watch(Person p, BoltCallback<Reply> callback);",
        "  @Oneway void fire(Person p);",
        "}");
    // protobuf records may use what boltgen's own codec writes: SOFARPC's side only sees the message
    JavaFileObject person = source("test.Person",
        "public record Person(String name, int age, Set<String> tags, Optional<Integer> rank, char initial) {}");
    Compilation c = ValidationTest.compile(svc, person, reply());
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).generatedSourceFile("test.SvcBoltSofaRpc").contentsAsUtf8String()
        .contains("SofaRpcProtobuf.request(");
  }

  // ------------------------------------------------------------------ Hessian2

  @Test
  void hessianCarriesCharsAsSofaHessianDoes() {
    // a string of one character, both ways (SofaRpcRoundTripTest, HessianInteropTest)
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Character initial(char c, List<Character> letters, Map<Character, String> byLetter);", "}");
    assertThat(ValidationTest.compile(svc)).succeededWithoutWarnings();
  }

  @Test
  void hessianRefusesProtobufScalarTypes() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  int shift(",
        "      @BoltScalar(BoltScalar.Type.SINT32) int offset);", "}");
    assertOnlyError(svc, 12, "UnsupportedSofaRpcType", "argument offset names a protobuf type with @BoltScalar", svc);
  }

  @Test
  void hessianWritesSetsAndTheJdkValueTypesSofaHessianWrites() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  int count(Map<String, Group> groups, Set<Integer> ids);", "}");
    JavaFileObject group = source("test.Group", "public record Group(List<String> names, Set<Integer> ids,",
        "    java.math.BigDecimal amount, java.time.Instant at, java.time.Duration pause, java.time.LocalDate day,",
        "    java.time.LocalTime time, java.time.LocalDateTime when) {}");
    Compilation c = ValidationTest.compile(svc, group);
    assertThat(c).succeededWithoutWarnings();
    assertThat(text(c, "test.SvcBoltSofaRpc"))
        .contains("writeList(\"java.util.LinkedHashSet\"", "SofaRpcHessian.toSet(", "SofaRpcJdkTypes.BIG_DECIMAL",
            "SofaRpcJdkTypes.LOCAL_DATE_TIME")
        .contains("List.of(\"java.util.Map\", \"java.util.Set\")");
  }

  @Test
  void hessianRefusesAnOptionalResult() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Optional<String> find(String id);", "}");
    assertOnlyError(svc, 11, "UnsupportedSofaRpcType",
        "the result of find() is an Optional", svc);
  }

  @Test
  void aRecordJavacRefusesIsJavacsErrorNotTheProcessors() {
    // a component named as one of Object's final methods has no accessor: javac says so, the processor does not fail
    JavaFileObject svc = source("test.Svc", "@BoltService", "public interface Svc {", "  Group get();", "}");
    JavaFileObject group = source("test.Group", "public record Group(java.time.Duration wait) {}");
    Compilation c = ValidationTest.compile(svc, group);
    assertThat(c).failed();
    assertThat(c.errors()).noneMatch(e -> e.getMessage(Locale.ROOT).contains("InternalError"));
  }

  @Test
  void hessianRefusesJdkTypesInRecordsOnTheComponent() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Event last();", "}");
    JavaFileObject event = source("test.Event",
        "public record Event(String name,",
        "    java.net.URI at) {}");
    assertOnlyError(event, 9, "UnsupportedSofaRpcType",
        "component at is URI, which SOFARPC itself cannot write on Java 17", svc, event);
  }

  @Test
  void hessianRefusesTypesWithoutAMappingNamingTheElement() {
    for (String type : List.of("java.util.List<java.util.Optional<String>>",
        "java.net.URI", "java.util.Optional<String>")) {
      JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
          "  Event last();", "}");
      JavaFileObject event = source("test.Event",
          "public record Event(String name,",
          "    " + type + " at) {}");
      Compilation c = ValidationTest.compile(svc, event);
      assertThat(c).failed();
      // an Optional element no boltgen service carries; URI and Optional only Hessian2 does not
      assertThat(c.errors()).as("%s: %s", type, c.errors()).hasSize(1).first()
          .satisfies(e -> assertThat(e.getMessage(Locale.ROOT)).containsPattern(
              "\\[Bolt/Unsupported(SofaRpc)?Type\\] .*component at "));
    }
  }

  @Test
  void hessianRefusesProtobufJavaMessages() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  String at(com.google.protobuf.Timestamp when);", "}");
    assertOnlyError(svc, 11, "UnsupportedSofaRpcType",
        "argument when is a protobuf-java message", svc);
  }

  @Test
  void hessianRefusesAOneofOnce() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  double area(Shape shape);", "}");
    JavaFileObject shape = source("test.Shape",
        "public sealed interface Shape {",
        "  record Circle(double r) implements Shape {}",
        "  record Square(double side) implements Shape {}",
        "}");
    assertOnlyError(svc, 11, "UnsupportedSofaRpcType",
        "argument shape is a sealed interface (oneof)", svc, shape);
  }

  @Test
  void hessianRefusesAnExceptionWhoseFieldsCannotTravel() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  String get(String id) throws Refused;", "}");
    // a field of a type an exception does not carry
    JavaFileObject listField = source("test.Refused", "public class Refused extends Exception {",
        "  private final List<String> why = List.of();",
        "  public Refused(String message) { super(message); }",
        "  public List<String> why() { return why; }", "}");
    assertOnlyError(svc, 11, "UnmappableException", "the declared exception Refused carries its fields to and from"
        + " SOFARPC's Hessian2 peers, but field why is java.util.List<java.lang.String>; an exception's fields may"
        + " be primitives, their boxes and String", svc, listField);
    // a field nothing reads
    JavaFileObject unread = source("test.Refused", "public class Refused extends Exception {",
        "  private final int code;",
        "  public Refused(String message) { this(message, 0); }",
        "  public Refused(String message, int code) { super(message); this.code = code; }", "}");
    assertOnlyError(svc, 11, "UnmappableException", "field code cannot be read: add a public code() or getCode()",
        svc, unread);
    // no way to set a field
    JavaFileObject unset = source("test.Refused", "public class Refused extends Exception {",
        "  private int code;",
        "  private String reason;",
        "  public Refused(String message) { super(message); }",
        "  public int getCode() { return code; }",
        "  public void setCode(int code) { this.code = code; }",
        "  public String reason() { return reason; }", "}");
    assertOnlyError(svc, 11, "UnmappableException", "it cannot be rebuilt with its fields: add a public constructor"
        + " (String message, int code, java.lang.String reason), or a public setter for each field", svc, unset);
    // a name sofa-hessian writes for Throwable itself
    JavaFileObject shadow = source("test.Refused", "public class Refused extends RuntimeException {",
        "  public final String cause = \"\";",
        "  public Refused(String message) { super(message); }", "}");
    assertOnlyError(svc, 11, "UnmappableException", "field cause has the name of one of Throwable's", svc, shadow);
  }

  @Test
  void aRefusedServiceDoesNotStopAValidOne() {
    JavaFileObject bad = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  String initial(Optional<String> c);", "}");
    JavaFileObject good = source("test.Good", "@BoltService",
        "@SofaRpcService(interfaceName = \"com.example.Good\")",
        "public interface Good { String initial(String c); }");
    assertOnlyError(bad, 11, "UnsupportedSofaRpcType", "argument c is an Optional", bad, good);
    assertThat(generatedSources(bad, good)).contains("test/GoodBolt.java", "test/GoodBoltSofaRpc.java");
  }

  @Test
  void validHessianServiceCompilesWithoutWarnings() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Person get(int id, String name) throws Missing;",
        "  CompletableFuture<List<Person>> all();",
        "  void watch(Map<String, Integer> filter, BoltCallback<Person> callback);",
        "  @Oneway void fire(byte[] data, Kind kind, Integer boxed, long n, double d, boolean b);",
        "  void nothing();",
        "  Kind kind(float f, short s, byte b, Short boxedShort, Float boxedFloat);",
        "}");
    JavaFileObject person = source("test.Person",
        "@SofaRpcClass(\"com.example.model.Person\")",
        "public record Person(String name, int age, List<Kind> kinds, Map<String, Person> friends) {}");
    JavaFileObject kind = source("test.Kind", "@SofaRpcClass(\"com.example.model.Kind\")", "public enum Kind { A, B }");
    JavaFileObject missing = source("test.Missing", "@SofaRpcClass(\"com.example.Missing\")",
        "public class Missing extends Exception {",
        "  private static final long serialVersionUID = 1L;",
        "  public Missing(String message) { super(message); }", "}");
    Compilation c = ValidationTest.compile(svc, person, kind, missing);
    assertThat(c).succeededWithoutWarnings();
    String sofa = text(c, "test.SvcBoltSofaRpc");
    assertThat(sofa)
        .contains("List.of(\"int\", \"java.lang.String\")")
        .contains("List.of(\"[B\", \"com.example.model.Kind\", \"java.lang.Integer\", \"long\", \"double\", \"boolean\")")
        .contains("List.of(\"java.util.Map\")") // the callback is no argument
        .contains("HessianClass.of(\"com.example.model.Person\", \"name\", \"age\", \"kinds\", \"friends\")")
        .contains("HessianClass.of(\"com.example.Missing\", \"detailMessage\")")
        .contains("new SofaRpcHessian.DeclaredException<>(Missing.class, MISSING_TYPE)");
    assertThat(text(c, "test.SvcBolt")).contains("case \"com.example.Missing\" -> withCause("
        + "error.remoteException() instanceof Missing rebuilt ? rebuilt");
  }

  // ------------------------------------------------------------------ generated code of odd shapes

  @Test
  void componentsNamedAsTheGeneratedLocalsCompile() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Odd echo(Odd in, Odd out);", "}");
    JavaFileObject odd = source("test.Odd",
        "public record Odd(String in, int out, long value, boolean i, double sent, List<String> i1,",
        "    Map<String, Integer> i2, List<Integer> o1, Map<String, String> e1, String k1, String v1,",
        "    String CLASS, String arguments, String result, String i1_) {}");
    Compilation c = ValidationTest.compile(svc, odd);
    assertThat(c).succeededWithoutWarnings();
  }

  /** Nested lists, and maps of lists or with enum keys, are refused by boltgen's model before the dialect. */
  @Test
  void emptyRecordsEnumsInCollectionsAndRecordValuedMapsCompile() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Empty ping(Empty e);",
        "  Map<Integer, Person> byId(List<Kind> kinds, Map<Long, Kind> byNumber);",
        "  Map<String, Empty> empties(List<Empty> some);",
        "}");
    JavaFileObject empty = source("test.Empty", "public record Empty() {}");
    JavaFileObject kind = source("test.Kind", "public enum Kind { A, B }");
    Compilation c = ValidationTest.compile(svc, empty, person(), kind);
    assertThat(c).succeededWithoutWarnings();
    assertThat(text(c, "test.SvcBoltSofaRpc")).contains("HessianClass.of(\"test.Empty\");");
  }

  @Test
  void recordsSharedByTwoServicesCompile() {
    JavaFileObject one = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  Person get(int id);", "}");
    JavaFileObject two = source("test.Other", "@BoltService",
        "@SofaRpcService(interfaceName = \"com.example.Other\", serializer = SofaRpcService.Serializer.HESSIAN2)",
        "public interface Other {", "  List<Person> all(Person like);", "}");
    JavaFileObject plain = source("test.Plain", "@BoltService", "public interface Plain {",
        "  Person get(int id);", "}");
    Compilation c = ValidationTest.compile(one, two, plain, person());
    assertThat(c).succeededWithoutWarnings();
    assertThat(text(c, "test.SvcBoltSofaRpc")).contains("PERSON_TYPE");
    assertThat(text(c, "test.OtherBoltSofaRpc")).contains("PERSON_TYPE");
    assertThat(c).generatedSourceFile("test.PlainBolt");
  }

  @Test
  void aSubclassOfADeclaredExceptionIsNamedBeforeItsSuperclass() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  String a(String x) throws Base;",
        "  String b(String x) throws Sub, Base;",
        "  String c(String x) throws Leaf;",
        "}");
    Compilation c = ValidationTest.compile(svc,
        exception("Base", "Exception", "com.example.Base"),
        exception("Sub", "Base", "com.example.Sub"),
        exception("Leaf", "Sub", "com.example.Leaf"));
    assertThat(c).succeededWithoutWarnings();
    String sofa = text(c, "test.SvcBoltSofaRpc");
    assertThat(sofa.indexOf("(Leaf.class")).isPositive().isLessThan(sofa.indexOf("(Sub.class"));
    assertThat(sofa.indexOf("(Sub.class")).isLessThan(sofa.indexOf("(Base.class"));
  }

  @Test
  void twoDeclaredExceptionsMustNotStandForOneSofaRpcClass() {
    JavaFileObject svc = source("test.Svc", "@BoltService", HESSIAN, "public interface Svc {",
        "  String a(String x) throws Full, Closed;",
        "}");
    assertOnlyError(svc, 11, "InvalidSofaRpcClass", "which both stand for the SOFARPC class com.example.Refused",
        svc, exception("Full", "Exception", "com.example.Refused"),
        exception("Closed", "Exception", "com.example.Refused"));
  }

  private static JavaFileObject exception(String name, String parent, String remote) {
    return source("test." + name, "@SofaRpcClass(\"" + remote + "\")",
        "public class " + name + " extends " + parent + " {",
        "  private static final long serialVersionUID = 1L;",
        "  public " + name + "(String message) { super(message); }", "}");
  }

}
