package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import io.boltgen.json.JsonForms;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Whether a service gets JSON codecs (when bolt-json is on the class path, unless {@code -Aboltgen.json=false}),
 * and which methods get a JSON form: all whose messages have one. A message two of whose fields share a JSON name has
 * none (protoc refuses such a {@code .proto} too), nor has a message that reaches it; the service still compiles
 * cleanly, and its other methods keep theirs. (A protobuf-java message of the user's own: ProtoMessageTypesTest.)
 */
class JsonSupportTest {

  @Test
  void aMessageWhoseFieldsShareAJsonNameHasNoJsonFormNorHasWhatReachesIt() throws IOException {
    JavaFileObject svc = ValidationTest.svc(
        "@BoltService(name = \"test.Svc\")",
        "public interface Svc {",
        "  Clash clash(Clash value);",
        "  Holder held(List<Holder> holders);",
        "  String plain(int hold_millis);",
        "  record Clash(int fooBar, int foo_bar) {}",
        "  record Holder(Map<String, Clash> byName) {}",
        "}");
    Compilation c = ValidationTest.compile(svc);
    assertThat(c).succeededWithoutWarnings();
    String holder = source(c, "test.SvcBolt");
    assertThat(holder)
        .contains(".extension(JsonForms.class, JsonForms.of(SvcBoltJson.PLAIN_REQUEST, SvcBoltJson.PLAIN_RESPONSE))")
        .doesNotContain("CLASH_REQUEST, SvcBoltJson", "HELD_REQUEST, SvcBoltJson")
        .contains(".protoService(\"test.svc.Svc\")");
    String json = source(c, "test.SvcBoltJson");
    assertThat(json).contains("static void writePlainRequest(", "\"holdMillis\", \"hold_millis\");",
        "case 0, 1 -> { // holdMillis, hold_millis", "seenHoldMillis = r.once(seenHoldMillis);")
        .doesNotContain("writeSvc_Clash", "writeSvc_Holder", "CLASH_REQUEST");
  }

  @Test
  void withoutBoltJsonOnTheClassPathNoJsonCodecIsGeneratedAndTheServiceCompilesCleanly() throws Exception {
    Compilation c = compile(withoutBoltJson());
    assertThat(c).succeededWithoutWarnings();
    assertThat(c.generatedSourceFile("test.SvcBoltJson")).isEmpty();
    assertThat(source(c, "test.SvcBolt")).doesNotContain("JsonForms", "SvcBoltJson")
        .contains(".protoService(\"test.svc.Svc\")");
  }

  @Test
  void optionFalseLeavesThemOutThoughBoltJsonIsThere() throws Exception {
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
        .withOptions("-Xlint:all", "-Xlint:-processing", "-Aboltgen.json=false").compile(plainService());
    assertThat(c).succeededWithoutWarnings();
    assertThat(c.generatedSourceFile("test.SvcBoltJson")).isEmpty();
    assertThat(source(c, "test.SvcBolt")).doesNotContain("JsonForms");
  }

  @Test
  void optionTrueWithoutBoltJsonIsOneErrorSayingWhatToAdd() throws Exception {
    JavaFileObject svc = plainService();
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withOptions("-Aboltgen.json=true")
        .withClasspath(withoutBoltJson()).compile(svc);
    assertThat(c.errors()).hasSize(1);
    assertThat(c).hadErrorContaining("[Bolt/JsonRuntimeMissing] -Aboltgen.json=true asks for the JSON codecs of"
        + " @BoltService Svc, which call io.boltgen:bolt-json, not on this module's class path").inFile(svc).onLine(9);
  }

  private static JavaFileObject plainService() {
    return ValidationTest.svc("@BoltService(name = \"test.Svc\")", "public interface Svc { String plain(int id); }");
  }

  private static Compilation compile(List<File> classPath) {
    return Compiler.javac().withProcessors(new BoltProcessor()).withOptions("-Xlint:all", "-Xlint:-processing")
        .withClasspath(classPath).compile(plainService());
  }

  /** The test's class path without bolt-json's classes (jackson-core stays: only bolt-json decides). */
  private static List<File> withoutBoltJson() throws Exception {
    String module = new File(JsonForms.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
    List<File> path = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.equals(module)).map(File::new).toList();
    assertThat(path).hasSizeLessThan(System.getProperty("java.class.path").split(File.pathSeparator).length);
    return path;
  }

  private static String source(Compilation c, String name) throws IOException {
    return c.generatedSourceFile(name).orElseThrow().getCharContent(true).toString();
  }
}
