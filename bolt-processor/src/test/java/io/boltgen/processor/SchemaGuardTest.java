package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static io.boltgen.processor.ValidationTest.source;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema evolution guard end to end: every baseline is recorded by compiling version 1 of a service
 * in update mode; then version 2 is compiled against it. One test per breaking rule (tag, the element
 * named in the message, file and line of the Java element), one per compatible change (success, baseline
 * untouched), update mode, no option, and the note for a missing baseline.
 */
class SchemaGuardTest {

  @TempDir Path dir;
  private Path baseline;

  private static final String ITEM = "public record Item(String name, int quantity, Kind kind) {}";
  private static final String KIND = "public enum Kind { A, B }";

  @BeforeEach
  void recordVersion1() throws IOException {
    baseline = dir.resolve("boltgen").resolve("test.Svc.proto");
    Compilation c = compile(true, v1());
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).hadNoteContaining("[Bolt/BaselineUpdated] recorded the schema of test.Svc as the baseline");
    assertThat(Files.readString(baseline)).isEqualTo(proto(c)).contains("message Item {");
  }

  // ---- helpers

  private Compilation compile(boolean update, JavaFileObject... sources) {
    List<String> options = new ArrayList<>(List.of("-Xlint:all", "-Xlint:-processing",
        "-Aboltgen.baseline=" + dir.resolve("boltgen")));
    options.add("-Aboltgen.baseline.update=" + update);
    return Compiler.javac().withProcessors(new BoltProcessor()).withOptions(options)
        .compile(sources);
  }

  /** The service: line 8 the annotation, line 9 the interface, methods from line 10. */
  private static JavaFileObject annotated(String annotation, String... methods) {
    String[] lines = new String[methods.length + 3];
    lines[0] = annotation;
    lines[1] = "public interface Svc {";
    System.arraycopy(methods, 0, lines, 2, methods.length);
    lines[lines.length - 1] = "}";
    return ValidationTest.svc(lines);
  }

  private static JavaFileObject[] sources(JavaFileObject svc, String item, String kind) {
    return new JavaFileObject[] {svc, source("test.Item", item), source("test.Kind", kind)};
  }

  private static JavaFileObject svc(String... methods) {
    return annotated("@BoltService(name = \"demo.Shop\", version = \"1.0\")", methods);
  }

  private static JavaFileObject[] v1() {
    return sources(svc("  Item get(String id);", "  @Oneway void fire(String note);"), ITEM, KIND);
  }

  private static String proto(Compilation c) throws IOException {
    return c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Svc.proto").orElseThrow()
        .getCharContent(true).toString();
  }

  private static void assertBreak(Compilation c, JavaFileObject file, int line, String tag, String message) {
    assertThat(c).failed();
    assertThat(c).hadErrorContainingMatch("\\[Bolt/" + tag + "\\] " + Pattern.quote(message)).inFile(file)
        .onLine(line);
  }

  private static long errors(Compilation c) {
    return c.diagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count();
  }

  /** Version 2 compiles cleanly and the baseline still holds version 1. */
  private void assertCompatible(JavaFileObject... v2) throws IOException {
    String before = Files.readString(baseline);
    Compilation c = compile(false, v2);
    assertThat(c).succeededWithoutWarnings();
    assertThat(proto(c)).isNotEqualTo(before);
    assertThat(Files.readString(baseline)).isEqualTo(before);
  }

  // ---- breaking changes

  @Test
  void insertingARecordComponentRenumbersTheOnesAfterIt() {
    JavaFileObject[] v2 = sources(v1()[0],
        "public record Item(String name, String note, int quantity, Kind kind) {}", KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[1], 8, "FieldRenumbered", "field quantity of message Item (test.Item) was number 2 in the"
        + " baseline " + baseline + ":");
    assertThat(c).hadErrorContaining("and is 3 now: older peers read it as another field. Pin it with @BoltField(2)"
        + " (then every component of the record needs one), or run mvn clean compile -Dboltgen.baseline.update=true");
    assertThat(c).hadErrorContaining("[Bolt/FieldRenumbered] field kind of message Item (test.Item) was number 3");
    assertThat(errors(c)).as("the inserted field at number 2 is the same root cause").isEqualTo(2);
  }

  @Test
  void insertingAParameterRenumbersTheRequest() {
    JavaFileObject[] v2 = sources(svc("  Item get(int shard, String id);", "  @Oneway void fire(String note);"),
        ITEM, KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[0], 10, "FieldRenumbered", "parameter id of method get was number 1 in the baseline");
    assertThat(c).hadErrorContaining("Parameters are numbered by position");
    assertThat(errors(c)).isEqualTo(1);
  }

  @Test
  void changingAComponentTypeRetypesIt() {
    JavaFileObject[] v2 = sources(v1()[0], "public record Item(String name, long quantity, Kind kind) {}", KIND);
    assertBreak(compile(false, v2), v2[1], 8, "FieldRetyped", "field quantity of message Item (test.Item) (number 2)"
        + " was int32 in the baseline");
    JavaFileObject[] boxed = sources(v1()[0], "public record Item(String name, Integer quantity, Kind kind) {}",
        KIND);
    Compilation c = compile(false, boxed);
    assertBreak(c, boxed[1], 8, "FieldRetyped", "field quantity of message Item (test.Item) (number 2) was int32");
    assertThat(c).hadErrorContaining("and is optional int32 now");
    JavaFileObject[] listed = sources(v1()[0], "public record Item(java.util.List<String> name, int quantity,"
        + " Kind kind) {}", KIND);
    assertThat(compile(false, listed)).hadErrorContaining("[Bolt/FieldRetyped] field name of message Item (test.Item)"
        + " (number 1) was optional string in the baseline");
  }

  @Test
  void changingTheResultTypeRetypesTheResponse() {
    JavaFileObject[] v2 = sources(svc("  String get(String id);", "  @Oneway void fire(String note);"), ITEM, KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[0], 10, "FieldRetyped", "the result of method get (field value of GetResponse) (number 1) was"
        + " Item in the baseline");
    assertThat(c).hadErrorContaining("and is optional string now: older peers encode or decode it differently"
        + " (presence, cardinality and integer width count too). Keep the result type and add a new method");
    assertThat(errors(c)).isEqualTo(1);
  }

  @Test
  void aRemovedComponentsNumberTakenByAnotherIsReused() {
    JavaFileObject[] v2 = sources(v1()[0], "public record Item(String name, String note, Kind kind) {}", KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[1], 8, "FieldNumberReused", "field note of message Item (test.Item) has number 2, which was"
        + " int32 quantity in the baseline");
    assertThat(errors(c)).isEqualTo(1);
  }

  @Test
  void aNumberReservedInTheBaselineStaysReserved() throws IOException {
    String reserving = "@BoltMessage(reserved = 4) public record Item(String name, int quantity, Kind kind) {}";
    assertThat(compile(true, sources(v1()[0], reserving, KIND))).succeeded();
    JavaFileObject[] v2 = sources(v1()[0], "public record Item(String name, int quantity, Kind kind, String note)"
        + " {}", KIND);
    assertBreak(compile(false, v2), v2[1], 8, "FieldNumberReused", "field note of message Item (test.Item) has"
        + " number 4, which is reserved in the baseline");
  }

  @Test
  void removingAComponentWithoutReservingItsNumber() {
    JavaFileObject[] v2 = sources(v1()[0], "public record Item(String name, int quantity) {}", KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[1], 8, "FieldRemoved", "field kind of message Item (test.Item) (optional Kind kind = 3 of the"
        + " baseline");
    assertThat(c).hadErrorContaining("Reserve it with @BoltMessage(reserved = 3)");
  }

  @Test
  void removingAParameterOrTheResult() {
    JavaFileObject[] v2 = sources(svc("  void get(String id);", "  @Oneway void fire();"), ITEM, KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[0], 10, "FieldRemoved", "the result of method get (Item value = 1 of the baseline");
    assertBreak(c, v2[0], 11, "FieldRemoved", "parameter note of method fire (optional string note = 1 of the");
    assertThat(errors(c)).as("Item and Kind are no longer referenced: nothing to compare").isEqualTo(2);
  }

  @Test
  void removingOrRenamingAMethod() {
    JavaFileObject[] v2 = sources(svc("  Item find(String id);", "  @Oneway void fire(String note);"), ITEM, KIND);
    Compilation c = compile(false, v2);
    assertBreak(c, v2[0], 9, "MethodRemoved", "method get (className demo.Shop:1.0/get) of the baseline");
    assertThat(c).hadErrorContaining("keep its wire name with @BoltMethod(name = \"get\")");
    assertThat(errors(c)).isEqualTo(1);
    JavaFileObject[] renamedKeepingTheWireName = sources(svc("  @BoltMethod(name = \"get\") Item find(String id);",
        "  @Oneway void fire(String note);"), ITEM, KIND);
    assertThat(compile(false, renamedKeepingTheWireName)).succeededWithoutWarnings();
  }

  @Test
  void onewayIsPartOfTheContract() {
    JavaFileObject[] v2 = sources(svc("  Item get(String id);", "  void fire(String note);"), ITEM, KIND);
    assertBreak(compile(false, v2), v2[0], 11, "CallStyleChanged", "method fire was oneway in the baseline");
    JavaFileObject[] v3 = sources(svc("  @Oneway void get(String id);", "  @Oneway void fire(String note);"), ITEM,
        KIND);
    assertThat(compile(false, v3)).hadErrorContaining("[Bolt/CallStyleChanged] method get was sync in the baseline");
  }

  @Test
  void streamingIsPartOfTheContract() {
    JavaFileObject[] v2 = sources(svc("  java.util.concurrent.Flow.Publisher<Item> get(String id);",
        "  @Oneway void fire(String note);"), ITEM, KIND);
    Compilation c = compile(false, v2);
    assertThat(c).hadErrorContaining("[Bolt/CallStyleChanged] method get was sync in the baseline");
    assertThat(c).hadErrorContaining("and is stream now: a stream's messages are read until its end, a unary"
        + " call's one message, so neither side understands the other. Keep its signature unary");
    JavaFileObject[] v3 = sources(svc("  java.util.concurrent.CompletableFuture<Item> get("
        + "java.util.concurrent.Flow.Publisher<String> ids);", "  @Oneway void fire(String note);"), ITEM, KIND);
    Compilation streamed = compile(false, v3);
    assertThat(streamed).hadErrorContaining("[Bolt/CallStyleChanged] method get was sync in the baseline");
    assertThat(streamed).hadErrorContaining("and is client stream now");
  }

  @Test
  void renamingTheServiceOrChangingItsVersion() {
    JavaFileObject[] renamed = sources(annotated("@BoltService(name = \"demo.Store\", version = \"1.0\")",
        "  Item get(String id);", "  @Oneway void fire(String note);"), ITEM, KIND);
    Compilation c = compile(false, renamed);
    assertBreak(c, renamed[0], 8, "ServiceRenamed", "the service was named demo.Shop in the baseline");
    assertThat(errors(c)).as("one root cause").isEqualTo(1);
    JavaFileObject[] version = sources(annotated("@BoltService(name = \"demo.Shop\", version = \"2.0\")",
        "  Item get(String id);", "  @Oneway void fire(String note);"), ITEM, KIND);
    assertBreak(compile(false, version), version[0], 8, "ServiceVersionChanged", "the version of service demo.Shop"
        + " was 1.0 in the baseline");
  }

  @Test
  void insertingAnEnumConstantRenumbersTheOnesAfterIt() {
    JavaFileObject[] v2 = sources(v1()[0], ITEM, "public enum Kind {\n  A,\n  X,\n  B\n}");
    Compilation c = compile(false, v2);
    assertBreak(c, v2[2], 11, "EnumValueRenumbered", "value KIND_B of enum Kind (test.Kind) was number 1 in the"
        + " baseline");
    assertThat(errors(c)).isEqualTo(1);
  }

  @Test
  void renamingAnEnumConstantReusesItsNumber() {
    JavaFileObject[] v2 = sources(v1()[0], ITEM, "public enum Kind {\n  A,\n  C\n}");
    assertBreak(compile(false, v2), v2[2], 10, "EnumValueNumberReused", "value KIND_C of enum Kind (test.Kind) has"
        + " number 1, which was KIND_B in the baseline");
  }

  @Test
  void removingAnEnumConstant() {
    JavaFileObject[] v2 = sources(v1()[0], ITEM, "public enum Kind { A }");
    assertBreak(compile(false, v2), v2[2], 8, "EnumValueRemoved", "value KIND_B (number 1) of enum Kind (test.Kind)");
  }

  @Test
  void aChangeOfASharedMessageIsReportedOnce() throws IOException {
    JavaFileObject shared = svc("  Item get(String id);", "  @Oneway void fire(String note);", "  Item put(Item item);",
        "  List<Item> all();");
    assertThat(compile(true, sources(shared, ITEM, KIND))).succeeded();
    Compilation c = compile(false, sources(shared, "public record Item(String name, long quantity, Kind kind) {}",
        KIND));
    assertThat(c).hadErrorContaining("[Bolt/FieldRetyped] field quantity of message Item");
    assertThat(errors(c)).isEqualTo(1);
  }

  @Test
  void aRenamedMessageIsComparedByStructure() {
    JavaFileObject[] v2 = sources(v1()[0], "@BoltMessage(name = \"Product\") public record Item(String name, long"
        + " quantity, Kind kind) {}", KIND);
    assertBreak(compile(false, v2), v2[1], 8, "FieldRetyped", "field quantity of message Product (test.Item)");
  }

  @Test
  void anUnreadableBaselineIsAnError() throws IOException {
    Files.writeString(baseline, "syntax = \"proto3\";\nmessage {\n");
    JavaFileObject[] v2 = v1();
    assertBreak(compile(false, v2), v2[0], 9, "BaselineUnreadable", "cannot parse the baseline " + baseline
        + " (line 2: expected a name, not '{'); restore it from version control");
  }

  // ---- compatible changes

  @Test
  void anUnchangedServicePasses() {
    assertThat(compile(false, v1())).succeededWithoutWarnings();
  }

  @Test
  void appendingARecordComponentPasses() throws IOException {
    assertCompatible(sources(v1()[0], "public record Item(String name, int quantity, Kind kind, String color) {}",
        KIND));
  }

  @Test
  void addingAMethodAndAMessagePasses() throws IOException {
    assertCompatible(svc("  Item get(String id);", "  @Oneway void fire(String note);", "  Tag tag(Item item);"),
        source("test.Item", ITEM), source("test.Kind", KIND), source("test.Tag", "public record Tag(String text) {}"));
  }

  @Test
  void appendingAnEnumConstantPasses() throws IOException {
    assertCompatible(sources(v1()[0], ITEM, "public enum Kind { A, B, C }"));
  }

  @Test
  void removingAComponentWhoseNumberIsReservedPasses() throws IOException {
    assertCompatible(sources(v1()[0], "@BoltMessage(reserved = 3) public record Item(String name, int quantity) {}",
        KIND));
  }

  @Test
  void renamingAMessageOrChangingTheSyncStylePasses() throws IOException {
    assertCompatible(sources(svc("  CompletableFuture<Item> get(String id);", "  @Oneway void fire(String note);"),
        "@BoltMessage(name = \"Product\") public record Item(String name, int quantity, Kind kind) {}", KIND));
  }

  @Test
  void renamingAnEnumPasses() throws IOException {
    assertCompatible(sources(v1()[0], ITEM, "@BoltMessage(name = \"Sort\") public enum Kind { A, B }"));
  }

  @Test
  void pinningTheOriginalNumbersAfterAnInsertionPasses() throws IOException {
    assertCompatible(sources(v1()[0], "public record Item(@BoltField(1) String name, @BoltField(4) String note,"
        + " @BoltField(2) int quantity, @BoltField(3) Kind kind) {}", KIND));
  }

  // ---- modes

  @Test
  void updateModeRewritesTheBaseline() throws IOException {
    JavaFileObject[] v2 = sources(v1()[0], "public record Item(String name, String note, int quantity, Kind kind) {}",
        KIND);
    Compilation c = compile(true, v2);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).hadNoteContaining("[Bolt/BaselineUpdated]");
    assertThat(Files.readString(baseline, StandardCharsets.UTF_8)).isEqualTo(proto(c)).contains("string note = 2;");
    assertThat(compile(false, v2)).succeededWithoutWarnings();
    Compilation again = compile(true, v2);
    assertThat(again.diagnostics()).as("an unchanged baseline is not rewritten").noneMatch(
        d -> d.getMessage(null).contains("BaselineUpdated"));
  }

  @Test
  void withoutTheBaselineOptionThereIsNoGuard() {
    JavaFileObject[] v2 = sources(v1()[0], "public record Item(String name, String note, int quantity, Kind kind) {}",
        KIND);
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
        .withOptions("-Xlint:all", "-Xlint:-processing", "-Werror").compile(v2);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c.notes()).noneMatch(d -> d.getMessage(null).contains("[Bolt/"));
  }

  @Test
  void updateWithoutADirectoryIsAnError() {
    JavaFileObject[] v2 = v1();
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
        .withOptions("-Aboltgen.baseline.update=true").compile(v2);
    assertBreak(c, v2[0], 9, "BaselineOptionMissing", "-Aboltgen.baseline.update=true records the baselines in the"
        + " directory given by -Aboltgen.baseline=<dir>, which is not set");
  }

  @Test
  void aMissingBaselineIsANoteNotAWarning() throws IOException {
    Files.delete(baseline);
    JavaFileObject[] v1 = v1();
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
        .withOptions("-Xlint:all", "-Xlint:-processing", "-Werror", "-Aboltgen.baseline=" + dir.resolve("boltgen"),
            "-Aboltgen.baseline.update=false")
        .compile(v1);
    assertThat(c).succeededWithoutWarnings();
    assertThat(c).hadNoteContaining("[Bolt/BaselineMissing] no baseline " + baseline + " for test.Svc: its wire"
        + " schema is not checked until you record one with mvn clean compile -Dboltgen.baseline.update=true")
        .inFile(v1[0]).onLine(9);
    assertThat(baseline).doesNotExist();
  }

  private static JavaFileObject geo(String permits, String... records) {
    List<String> lines = new ArrayList<>(List.of("@BoltService", "public interface Geo {", "  void draw(Shape s);",
        "  sealed interface Shape permits " + permits + " {}"));
    lines.addAll(List.of(records));
    lines.add("}");
    return source("test.Geo", lines.toArray(new String[0]));
  }

  @Test
  void aCaseInsertedBeforeOthersInASealedInterfaceRenumbersItsOneofAndAnAppendedOnePasses() throws IOException {
    String circle = "  record Circle(double r) implements Shape {}";
    String square = "  record Square(double side) implements Shape {}";
    String triangle = "  record Triangle(double base) implements Shape {}";
    assertThat(compile(true, geo("Circle, Square", circle, square))).succeeded();
    Path geoBaseline = dir.resolve("boltgen").resolve("test.Geo.proto");
    String recorded = Files.readString(geoBaseline);
    assertThat(recorded).contains("oneof value {");

    Compilation inserted = compile(false, geo("Triangle, Circle, Square", triangle, circle, square));
    assertThat(inserted).failed();
    assertThat(inserted).hadErrorContaining("[Bolt/FieldRenumbered] field circle of message Geo_Shape");
    assertThat(inserted).hadErrorContaining("field circle of message Geo_Shape").inFile(
        inserted.sourceFiles().get(0)).onLine(13);

    assertThat(compile(false, geo("Circle, Square, Triangle", circle, square, triangle))).succeeded();
    assertThat(Files.readString(geoBaseline)).isEqualTo(recorded);
  }
}
