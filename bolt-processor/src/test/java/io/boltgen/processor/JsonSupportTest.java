package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which methods get a JSON form: all whose messages have one. A message two of whose fields share a JSON name has
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
    assertThat(holder).contains(".json(SvcBoltJson.PLAIN_REQUEST, SvcBoltJson.PLAIN_RESPONSE)")
        .doesNotContain("CLASH_REQUEST, SvcBoltJson", "HELD_REQUEST, SvcBoltJson")
        .contains(".protoService(\"test.svc.Svc\")");
    String json = source(c, "test.SvcBoltJson");
    assertThat(json).contains("static void writePlainRequest(", "case \"holdMillis\", \"hold_millis\" -> {",
        "seenHoldMillis = r.once(seenHoldMillis);")
        .doesNotContain("writeSvc_Clash", "writeSvc_Holder", "CLASH_REQUEST");
  }

  private static String source(Compilation c, String name) throws IOException {
    return c.generatedSourceFile(name).orElseThrow().getCharContent(true).toString();
  }
}
