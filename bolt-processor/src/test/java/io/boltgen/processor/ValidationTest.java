package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.TypeSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * One minimal failing source per compile-time rule, asserting the tagged message, the
 * file and the line; and the happy path without warnings under {@code -Xlint:all}.
 */
class ValidationTest {

  static Compilation compile(JavaFileObject... sources) {
    return Compiler.javac()
        .withProcessors(new BoltProcessor())
        .withOptions("-Xlint:all", "-Xlint:-processing")
        .compile(sources);
  }

  /** {@code test/Svc.java}: the package line, the imports, then {@code lines} from line 8 on. */
  static JavaFileObject svc(String... lines) {
    return source("test.Svc", lines);
  }

  static JavaFileObject source(String name, String... lines) {
    String[] all = new String[7 + lines.length];
    all[0] = "package test;";
    all[1] = "import io.boltgen.annotation.*;";
    all[2] = "import java.util.*;";
    all[3] = "import java.util.concurrent.*;";
    all[4] = "";
    all[5] = "";
    all[6] = "";
    System.arraycopy(lines, 0, all, 7, lines.length);
    return JavaFileObjects.forSourceLines(name, all);
  }

  private static void assertError(Compilation c, JavaFileObject file, int line, String tag, String message) {
    assertThat(c).failed();
    assertThat(c).hadErrorContainingMatch("\\[Bolt/" + tag + "\\] (.*)" + Pattern.quote(message)).inFile(file)
        .onLine(line);
  }

  @Test
  void happyPathCompilesWithoutWarnings() {
    JavaFileObject svc = svc(
        "/** Docs. */",
        "@BoltService(name = \"demo.Shop\", version = \"2.1\")",
        "public interface Svc {",
        "  /** Gets. @deprecated use another */",
        "  @Deprecated String get(String id, List<Integer> ids, Map<String, Item> items, Optional<Kind> kind);",
        "  CompletableFuture<Item> later(int n);",
        "  void watch(long id, BoltCallback<List<Item>> callback);",
        "  @Oneway void fire(byte[] data);",
        "  void nothing();",
        "  int count(Set<String> tags) throws Missing;",
        "}");
    Compilation c = compile(svc,
        source("test.Item", "public record Item(String name, double price, Kind kind) {}"),
        source("test.Kind", "public enum Kind { A, B }"),
        source("test.Missing", "public class Missing extends Exception {",
            "  private static final long serialVersionUID = 1L;",
            "  public Missing(String message) { super(message); }", "}"));
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).generatedSourceFile("test.SvcBolt");
    assertThat(c).generatedSourceFile("test.SvcBoltStub");
    assertThat(c).generatedSourceFile("test.SvcBoltSkeleton");
    assertThat(c).generatedSourceFile("test.SvcBoltCodecs");
    assertThat(c).generatedSourceFile("test.SvcBoltProvider");
    assertThat(c).generatedFile(javax.tools.StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Svc.proto");
    assertThat(c).generatedFile(javax.tools.StandardLocation.CLASS_OUTPUT,
        "META-INF/services/io.boltgen.runtime.service.GeneratedService");
  }

  @Test
  void nestedInterfacesGetFlattenedNames() {
    JavaFileObject f = source("test.Outer", "public class Outer {", "  @BoltService", "  public interface Api {",
        "    Map<String, Level> levels(Set<Level> wanted);", "  }", "  public enum Level { LOW, HIGH }", "}");
    Compilation c = compile(f);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).generatedSourceFile("test.Outer_ApiBolt");
    assertThat(c).generatedSourceFile("test.Outer_ApiBoltStub").contentsAsUtf8String()
        .contains("public final class Outer_ApiBoltStub implements Outer.Api");
    assertThat(c).generatedFile(javax.tools.StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Outer.Api.proto")
        .contentsAsUtf8String().contains("enum Outer_Level {");
  }

  // rule 1
  @Test
  void serviceMustBeAnInterface() {
    JavaFileObject f = svc("@BoltService", "public class Svc {}");
    assertError(compile(f), f, 8, "NotAnInterface", "@BoltService may only be applied to interfaces");
    JavaFileObject r = svc("@BoltService", "record Svc(int x) {}");
    assertError(compile(r), r, 8, "NotAnInterface", "not to the record Svc");
    JavaFileObject e = svc("@BoltService", "enum Svc { A }");
    assertError(compile(e), e, 8, "NotAnInterface", "not to the enum Svc");
  }

  // rule 2
  @Test
  void serviceMustNotBePrivateOrGeneric() {
    JavaFileObject p = svc("class Svc {", "  @BoltService", "  private interface Inner { void m(); }", "}");
    assertError(compile(p), p, 9, "InvalidServiceInterface", "must not be private");
    JavaFileObject g = svc("@BoltService", "interface Svc<T> { void m(); }");
    assertError(compile(g), g, 8, "InvalidServiceInterface", "must not be generic");
  }

  // rule 3
  @Test
  void nameVersionAndTimeoutAreChecked() {
    JavaFileObject n = svc("@BoltService(", "    name = \"9bad name\")", "interface Svc { void m(); }");
    assertError(compile(n), n, 9, "InvalidServiceName", "invalid service name \"9bad name\"");
    JavaFileObject v = svc("@BoltService(", "    version = \"1.x\")", "interface Svc { void m(); }");
    assertError(compile(v), v, 9, "InvalidVersion", "invalid service version \"1.x\"");
    JavaFileObject t = svc("@BoltService(", "    timeoutMillis = 0)", "interface Svc { void m(); }");
    assertError(compile(t), t, 9, "InvalidTimeout", "timeoutMillis must be 1..");
    JavaFileObject mt = svc("@BoltService", "interface Svc {", "  @BoltMethod(timeoutMillis = -1)", "  void m();", "}");
    assertError(compile(mt), mt, 10, "InvalidTimeout", "timeoutMillis must be 0");
  }

  // rule 4
  @Test
  void duplicateServicesAreRejected() {
    JavaFileObject a = source("test.A", "@BoltService(name = \"x.Same\")", "interface A { void m(); }");
    JavaFileObject b = source("test.B", "@BoltService(name = \"x.Same\")", "interface B { void m(); }");
    Compilation c = compile(a, b);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[Bolt/DuplicateService] the service x.Same:1.0 is also declared by test.A")
        .inFile(b).onLine(8);
  }

  // rule 5
  @Test
  void overloadsAreRejected() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  String get(String a);", "  String get(int a);", "}");
    Compilation overloads = compile(f);
    assertError(overloads, f, 11, "DuplicateMethodName",
        "\"get\" is also the name of Svc.get(): overloads need distinct names on the wire; set @BoltMethod(name");
    assertThat(overloads.errors()).hasSize(1);
    JavaFileObject w = svc("@BoltService", "interface Svc {", "  String a();", "  @BoltMethod(name = \"a\")",
        "  String b();", "}");
    assertError(compile(w), w, 11, "DuplicateMethodName", "\"a\" is also the name of Svc.a()");
    JavaFileObject bad = svc("@BoltService", "interface Svc {", "  @BoltMethod(name = \"no-dash\")", "  String b();", "}");
    assertError(compile(bad), bad, 10, "InvalidMethodName", "invalid method name \"no-dash\"");
  }

  // rule 6
  @Test
  void methodNamesMustNotClashWithTheStub() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  String withTimeout(String a);", "}");
    assertError(compile(f), f, 10, "ReservedMethodName", "the method name withTimeout clashes");
    JavaFileObject o = svc("@BoltService", "interface Svc {", "  String toString();", "}");
    assertError(compile(o), o, 10, "ReservedMethodName", "the method name toString clashes");
    JavaFileObject p = svc("@BoltService", "interface Svc {", "  String get(int hashCode);", "}");
    assertError(compile(p), p, 10, "ReservedParameterName", "the parameter name hashCode cannot name a component");
  }

  // rule 7: method ids are the generated ordinals, nothing to check; the attribute that set them is gone
  @Test
  void aMethodCodeSetByHandNoLongerCompiles() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  @BoltMethod(code = 5)", "  void a();", "}");
    Compilation c = compile(f);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("cannot find symbol").inFile(f).onLine(10);
    assertThat(c).hadErrorContaining("method code()");
  }

  @Test
  void methodIdsAreOrdinalsInDeclarationOrderWhateverTheNames() throws Exception {
    // m431 and m610 of x.C:1.0 once had to be renamed: their hashed method codes were both 24184
    JavaFileObject f = svc("@BoltService(name = \"x.C\")", "interface Svc {", "  void m431();", "  void m610();",
        "  void b();", "}");
    Compilation c = compile(f);
    assertThat(c).succeededWithoutWarnings();
    String holder = FirstDayTest.generated(c, "test/SvcBolt.java");
    assertThat(holder).contains("static final int METHODID_M431 = 0;\n").contains("static final int METHODID_M610 = 1;\n")
        .contains("static final int METHODID_B = 2;\n").contains(".methodCode(METHODID_M610)\n");
    assertThat(FirstDayTest.generated(c, "test/SvcBoltSkeleton.java")).contains("case SvcBolt.METHODID_M431: {\n")
        .contains("case SvcBolt.METHODID_B: {\n");
  }

  // rule 8
  @Test
  void unsupportedTypesNameTheTypePath() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  void m(", "      List<Map<Foo, String>> x);",
        "  record Foo(int a) {}", "}");
    assertError(compile(f), f, 11, "UnsupportedType",
        "cannot serialize List<Map<Svc.Foo,String>> (parameter x of m()): the Map key Svc.Foo is not an integral type");
    JavaFileObject w = svc("@BoltService", "interface Svc {", "  void m(List<?> x);", "}");
    assertError(compile(w), w, 10, "UnsupportedType", "cannot serialize List<?> (parameter x of m()): the wildcard");
    JavaFileObject o = svc("@BoltService", "interface Svc {", "  Object m();", "}");
    assertError(compile(o), o, 10, "UnsupportedType", "cannot serialize Object (the result of m()): Object is not");
    JavaFileObject a = svc("@BoltService", "interface Svc {", "  void m(Optional<String>[] x);", "}");
    assertError(compile(a), a, 10, "UnsupportedType",
        "cannot serialize Optional<String>[] (parameter x of m()): array components cannot be Optional<String>");
    JavaFileObject raw = svc("@BoltService", "interface Svc {", "  @SuppressWarnings(\"rawtypes\") void m(List x);", "}");
    assertError(compile(raw), raw, 10, "UnsupportedType", "raw List");
    JavaFileObject i = svc("@BoltService", "interface Svc {", "  void m(Runnable r);", "}");
    assertError(compile(i), i, 10, "UnsupportedType", "the interface Runnable is not serializable");
    JavaFileObject nested = svc("@BoltService", "interface Svc {", "  void m(List<Optional<String>> x);", "}");
    assertError(compile(nested), nested, 10, "UnsupportedType",
        "List elements cannot be Optional<String>: an element is there or not");
    JavaFileObject values = svc("@BoltService", "interface Svc {", "  void m(Map<String, Optional<Long>> x);", "}");
    assertError(compile(values), values, 10, "UnsupportedType", "Map values cannot be Optional<Long>");
    JavaFileObject comp = svc("@BoltService", "interface Svc {", "  void m(Bag b);", "  record Bag(",
        "    Thread t) {}", "}");
    assertError(compile(comp), comp, 12, "UnsupportedType",
        "cannot serialize Thread (component t of record Bag): Thread is not serializable");
  }

  @Test
  void boltScalarMustFitTheTypeItIsOn() {
    JavaFileObject ok = svc("import static io.boltgen.annotation.BoltScalar.Type.*;", "@BoltService",
        "interface Svc {", "  Page m(@BoltScalar(SINT32) int offset, @BoltScalar(UINT64) Optional<Long> size,",
        "      @BoltScalar(key = SFIXED64, value = FIXED32) Map<Long, Integer> m, @BoltScalar(INT32) Integer plain);",
        "  record Page(@BoltScalar(SINT64) long a, @BoltScalar(FIXED64) List<Long> b, @BoltScalar(key = UINT32)",
        "      Map<Integer, String> c) {}", "}");
    assertThat(compile(ok)).succeededWithoutWarnings();
    JavaFileObject wide = svc("@BoltService", "interface Svc {", "  void m(Bag b);", "  record Bag(",
        "    @BoltScalar(BoltScalar.Type.SINT64) int a) {}", "}");
    assertError(compile(wide), wide, 12, "InvalidScalar",
        "@BoltScalar on component a of record Bag: SINT64 is carried by a long or Long, not int");
    JavaFileObject text = svc("@BoltService", "interface Svc {",
        "  void m(@BoltScalar(BoltScalar.Type.UINT32) String s);", "}");
    assertError(compile(text), text, 10, "InvalidScalar",
        "@BoltScalar on parameter s of m(): UINT32 is carried by an int or Integer, not String");
    JavaFileObject small = svc("@BoltService", "interface Svc {",
        "  void m(@BoltScalar(BoltScalar.Type.SINT32) short s);", "}");
    assertError(compile(small), small, 10, "InvalidScalar", "SINT32 is carried by an int or Integer, not short");
    JavaFileObject key = svc("@BoltService", "interface Svc {",
        "  void m(@BoltScalar(key = BoltScalar.Type.SINT32) List<Integer> s);", "}");
    assertError(compile(key), key, 10, "InvalidScalar",
        "@BoltScalar on parameter s of m(): key = SINT32 names the type of a map's keys, and this is no map");
    JavaFileObject mapKey = svc("@BoltService", "interface Svc {",
        "  void m(@BoltScalar(key = BoltScalar.Type.SINT64) Map<Integer, String> s);", "}");
    assertError(compile(mapKey), mapKey, 10, "InvalidScalar",
        "@BoltScalar on parameter s of m()'s keys: SINT64 is carried by a long or Long, not Integer");
  }

  @Test
  void theBoltScalarSnippetOfTheDocsCompilesAsWritten() throws IOException {
    String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "generated-code.md"));
    java.util.regex.Matcher m = Pattern.compile("```java\n(record Page\\(.*?)```", Pattern.DOTALL).matcher(doc);
    assertThat(m.find()).as("the @BoltScalar snippet in docs/generated-code.md").isTrue();
    List<String> lines = new java.util.ArrayList<>(List.of("import static io.boltgen.annotation.BoltScalar.Type.*;",
        "@BoltService", "interface Svc {", "  Page get(Page page);"));
    lines.addAll(List.of(m.group(1).split("\n")));
    lines.add("}");
    assertThat(compile(svc(lines.toArray(new String[0])))).succeededWithoutWarnings();
  }

  // rule 9
  @Test
  void returnTypesAreChecked() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  Future<String> m();", "}");
    assertError(compile(f), f, 10, "UnsupportedReturnType", "Future<String> is not supported: use CompletableFuture<T>");
    JavaFileObject raw = svc("@BoltService", "interface Svc {", "  @SuppressWarnings(\"rawtypes\") CompletableFuture m();", "}");
    assertError(compile(raw), raw, 10, "UnsupportedReturnType", "raw CompletableFuture");
    JavaFileObject ow = svc("@BoltService", "interface Svc {", "  @Oneway", "  String m();", "}");
    assertError(compile(ow), ow, 10, "InvalidOneway", "@Oneway methods must return void, not String");
    JavaFileObject cb = svc("@BoltService", "interface Svc {", "  void m(BoltCallback<String> cb, int x);", "}");
    assertError(compile(cb), cb, 10, "InvalidCallback", "a BoltCallback must be the last parameter");
  }

  @Test
  void aStreamingMethodReturnsAFlowPublisherOfItsMessages() {
    JavaFileObject ok = svc("@BoltService", "interface Svc {", "  Flow.Publisher<List<String>> lines(int from)"
        + " throws java.io.IOException;", "}");
    assertThat(compile(ok)).succeededWithoutWarnings();
    JavaFileObject raw = svc("@BoltService", "interface Svc {", "  @SuppressWarnings(\"rawtypes\") Flow.Publisher m();",
        "}");
    assertError(compile(raw), raw, 10, "UnsupportedReturnType", "raw Flow.Publisher: declare Flow.Publisher<T>, T the"
        + " type of the stream's messages (not a wildcard, not Void)");
    JavaFileObject wildcard = svc("@BoltService", "interface Svc {", "  Flow.Publisher<?> m();", "}");
    assertError(compile(wildcard), wildcard, 10, "UnsupportedReturnType", "Flow.Publisher<?>: declare Flow.Publisher<T>");
    JavaFileObject nothing = svc("@BoltService", "interface Svc {", "  Flow.Publisher<Void> m();", "}");
    assertError(compile(nothing), nothing, 10, "UnsupportedReturnType", "Flow.Publisher<Void>: declare");
    JavaFileObject oneway = svc("@BoltService", "interface Svc {", "  @Oneway", "  Flow.Publisher<String> m();", "}");
    assertError(compile(oneway), oneway, 10, "InvalidOneway", "@Oneway methods must return void");
    JavaFileObject idempotent = svc("@BoltService", "interface Svc {", "  @Idempotent", "  Flow.Publisher<String> m();",
        "}");
    assertError(compile(idempotent), idempotent, 10, "InvalidIdempotent", "a streaming method cannot be @Idempotent");
    JavaFileObject element = svc("@BoltService", "interface Svc {", "  Flow.Publisher<Thread> m();", "}");
    assertThat(compile(element)).failed();
  }

  @Test
  void aStreamOfRequestsIsTheOnlyParameterAFlowPublisherOfRequestsAnsweredByAFutureOrAPublisher() {
    JavaFileObject ok = svc("@BoltService", "interface Svc {",
        "  CompletableFuture<Integer> count(Flow.Publisher<List<String>> lines) throws java.io.IOException;",
        "  Flow.Publisher<String> echo(Flow.Publisher<String> lines);", "}");
    assertThat(compile(ok)).succeededWithoutWarnings();
    JavaFileObject two = svc("@BoltService", "interface Svc {",
        "  CompletableFuture<Integer> count(Flow.Publisher<String> lines, int limit);", "}");
    assertError(compile(two), two, 10, "InvalidRequestStream", "a Flow.Publisher parameter is the method's stream of"
        + " requests: it must be its only parameter");
    JavaFileObject raw = svc("@BoltService", "interface Svc {",
        "  @SuppressWarnings(\"rawtypes\") CompletableFuture<Integer> count(Flow.Publisher lines);", "}");
    assertError(compile(raw), raw, 10, "InvalidRequestStream", "raw Flow.Publisher: declare Flow.Publisher<T>, T the"
        + " type of the stream's requests (not a wildcard, not Void)");
    JavaFileObject wildcard = svc("@BoltService", "interface Svc {",
        "  CompletableFuture<Integer> count(Flow.Publisher<?> lines);", "}");
    assertError(compile(wildcard), wildcard, 10, "InvalidRequestStream", "Flow.Publisher<?>: declare");
    JavaFileObject sync = svc("@BoltService", "interface Svc {", "  int count(Flow.Publisher<String> lines);", "}");
    assertError(compile(sync), sync, 10, "UnsupportedReturnType", "count() takes a stream of requests"
        + " (Flow.Publisher<T>): it returns CompletableFuture<R> (client streaming: its one answer, once it read the"
        + " requests) or Flow.Publisher<R> (bidirectional streaming), not int");
    JavaFileObject idempotent = svc("@BoltService", "interface Svc {", "  @Idempotent",
        "  CompletableFuture<Integer> count(Flow.Publisher<String> lines);", "}");
    assertError(compile(idempotent), idempotent, 10, "InvalidIdempotent", "a streaming method cannot be @Idempotent");
    JavaFileObject element = svc("@BoltService", "interface Svc {",
        "  CompletableFuture<Integer> count(Flow.Publisher<Thread> lines);", "}");
    assertThat(compile(element)).failed();
  }

  @Test
  void onewayMethodsCannotBeIdempotent() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  @Oneway", "  @Idempotent", "  void fire(String note);",
        "  @Idempotent String get(String id);", "}");
    Compilation c = compile(f);
    // one error, on @Idempotent of the oneway method; the idempotent request-response method is fine
    assertError(c, f, 11, "InvalidIdempotent", "@Oneway methods cannot be @Idempotent: a client sends an idempotent"
        + " call again when it fails, and nothing tells it that a oneway call failed; remove @Idempotent, or remove"
        + " @Oneway to make fire() a request-response method");
    assertThat(c.errors()).hasSize(1);
    // an @Oneway wrong in itself is its own error; @Idempotent beside it is another
    JavaFileObject both = svc("@BoltService", "interface Svc {", "  @Oneway @Idempotent String m();", "}");
    Compilation twice = compile(both);
    assertThat(twice.errors()).hasSize(2);
    assertError(twice, both, 10, "InvalidOneway", "@Oneway methods must return void, not String");
    assertError(twice, both, 10, "InvalidIdempotent", "@Oneway methods cannot be @Idempotent");
  }

  // rule 10
  @Test
  void checkedExceptionsNeedAMessageConstructor() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  void m() throws Bad;",
        "  class Bad extends Exception {", "    private static final long serialVersionUID = 1L;", "    Bad() {}", "  }",
        "}");
    assertError(compile(f), f, 10, "UnmappableException",
        "the checked exception Bad cannot be rebuilt on the client: it needs a public constructor taking the message");
  }

  // rule 11
  @Test
  void fieldNumbersAreChecked() {
    JavaFileObject missing = svc("@BoltService", "interface Svc { void m(R r);", "record R(@BoltField(1) int a,",
        "    int b) {} }");
    assertError(compile(missing), missing, 11, "MissingFieldNumber", "b needs one too");
    JavaFileObject dup = svc("@BoltService", "interface Svc { void m(R r);", "record R(@BoltField(1) int a,",
        "    @BoltField(1) int b) {} }");
    assertError(compile(dup), dup, 11, "DuplicateFieldNumber", "field number 1 of b is also the number of a");
    JavaFileObject range = svc("@BoltService", "interface Svc { void m(R r);", "record R(",
        "    @BoltField(19500) int a) {} }");
    assertError(compile(range), range, 11, "InvalidFieldNumber", "inside protobuf's reserved 19000..19999");
    JavaFileObject reserved = svc("@BoltService", "interface Svc { void m(R r);",
        "@BoltMessage(reserved = 2) record R(@BoltField(1) int a,", "    @BoltField(2) int b) {} }");
    assertError(compile(reserved), reserved, 11, "ReservedFieldNumber", "field number 2 of b is reserved");
    JavaFileObject empty = svc("@BoltService", "interface Svc { void m(E e);", "enum E {} }");
    assertError(compile(empty), empty, 10, "InvalidEnum", "the enum E has no constants");
    JavaFileObject names = svc("@BoltService", "interface Svc { void m(R r, S s);", "record R(int a) {}",
        "@BoltMessage(name = \"Svc_R\") record S(int a) {} }");
    assertError(compile(names), names, 11, "DuplicateMessageName", "are named Svc_R in its .proto");
  }

  @Test
  void enumNumbersAreChecked() {
    JavaFileObject missing = svc("@BoltService", "interface Svc { void m(E e);", "enum E {",
        "  @BoltEnumValue(0) A,", "  B", "} }");
    assertError(compile(missing), missing, 12, "MissingEnumNumber",
        "enum numbers are all-or-nothing: A of E sets @BoltEnumValue, so B needs one too");
    JavaFileObject dup = svc("@BoltService", "interface Svc { void m(E e);", "enum E {",
        "  @BoltEnumValue(0) A,", "  @BoltEnumValue(3) B,", "  @BoltEnumValue(3) C", "} }");
    assertError(compile(dup), dup, 13, "DuplicateEnumNumber", "enum number 3 of C is also the number of B in E");
    JavaFileObject zero = svc("@BoltService", "interface Svc { void m(E e);", "enum E {",
        "  @BoltEnumValue(1) A,", "  @BoltEnumValue(2) B", "} }");
    assertError(compile(zero), zero, 10, "InvalidEnum", "no constant of the enum E has @BoltEnumValue(0)");
    JavaFileObject ok = svc("@BoltService", "interface Svc { E m(List<E> e, Map<String, E> m); }");
    assertThat(compile(ok, source("test.E", "public enum E {", "  @BoltEnumValue(7) A,", "  @BoltEnumValue(0) B,",
        "  @BoltEnumValue(-3) C", "}"))).succeededWithoutWarnings();
  }

  @Test
  void jdkValueTypesAreSupportedAndMapKeysFollowProtobuf() {
    JavaFileObject ok = svc("import java.time.*; import java.math.*; import java.net.URI;",
        "@BoltService", "interface Svc {",
        "  Instant a(Duration d, BigDecimal b, BigInteger i, UUID u, LocalDate ld, LocalTime lt, LocalDateTime ldt,",
        "      URI uri, List<Instant> is, Set<UUID> us, Map<UUID, Duration> m, Map<LocalDate, BigDecimal> p,",
        "      Optional<Instant> oi, Optional<URI> ou, com.google.protobuf.Timestamp t, com.google.protobuf.Any any);",
        "}");
    assertThat(compile(ok)).succeededWithoutWarnings();
    JavaFileObject key = svc("import java.time.*;", "@BoltService", "interface Svc {",
        "  void m(Map<Instant, String> x);", "}");
    assertError(compile(key), key, 11, "UnsupportedType", "cannot serialize Map<Instant,String> (parameter x of m()):"
        + " the Map key Instant is not an integral type, Boolean, String or a type carried as a string");
    JavaFileObject other = svc("import java.time.*;", "@BoltService", "interface Svc {",
        "  void m(ZonedDateTime x);", "}");
    assertError(compile(other), other, 11, "UnsupportedType", "ZonedDateTime is not serializable");
  }

  // rule 12
  @Test
  void generatedNamesMustBeFree() {
    JavaFileObject f = svc("@BoltService", "interface Svc { void m(); }", "class SvcBoltStub {}");
    assertError(compile(f), f, 9, "GeneratedNameClash", "cannot generate test.SvcBoltStub");
    JavaFileObject c = svc("@BoltService", "interface Svc {", "  void getX();", "  void get_x();", "}");
    assertError(compile(c), c, 11, "GeneratedNameClash", "would both generate the constant METHOD_GET_X");
  }

  /** Generates {@code test.Later} in the first round: a service using it is deferred, then generated. */
  static final class LaterProcessor extends AbstractProcessor {
    private boolean done;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (!done) {
        done = true;
        try {
          JavaFile.builder("test", TypeSpec.recordBuilder("Later").addModifiers(Modifier.PUBLIC)
                  .recordConstructor(com.palantir.javapoet.MethodSpec.constructorBuilder()
                      .addParameter(String.class, "value").build())
                  .build())
              .build().writeTo(processingEnv.getFiler());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }

  @Test
  void typesGeneratedInALaterRoundAreWaitedFor() {
    JavaFileObject f = svc("@BoltService", "interface Svc { Later get(Later in); }");
    Compilation c = Compiler.javac()
        .withProcessors(new LaterProcessor(), new BoltProcessor())
        .compile(f);
    assertThat(c).succeeded();
    assertThat(c).generatedSourceFile("test.SvcBoltCodecs").contentsAsUtf8String().contains("readLater");
  }

  @Test
  void typesStillMissingInTheLastRoundAreReported() {
    JavaFileObject f = svc("@BoltService", "interface Svc { Missing get(); }");
    Compilation c = compile(f);
    assertThat(c).failed();
    assertThat(c).hadErrorContaining("[Bolt/UnresolvedType] could not generate the Bolt service Svc")
        .inFile(f).onLine(9);
  }

  @Test
  void errorsAreTaggedAndEveryProblemIsReported() {
    JavaFileObject f = svc("@BoltService", "interface Svc {", "  void a(Object o);", "  Future<String> b();",
        "  void c() throws Bad;", "  class Bad extends Exception {",
        "    private static final long serialVersionUID = 1L;", "  }", "}");
    Compilation c = compile(f);
    assertThat(c).failed();
    assertThat(c.errors()).hasSize(3);
    assertThat(c.errors()).allSatisfy(d -> assertThat(d.getMessage(null)).startsWith("[Bolt/"));
    List<Long> lines = c.errors().stream().map(d -> d.getLineNumber()).toList();
    assertThat(lines).containsExactly(10L, 11L, 12L);
  }
}
