package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static io.boltgen.processor.GoldenTest.check;
import static io.boltgen.processor.GoldenTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Golden files of the SOFARPC dialect ({@code src/test/resources/golden/input/sofademo}): a Hessian2 service whose
 * records use every kind of component the dialect writes, and a protobuf one. Their {@code XxxBoltSofaRpc} (the
 * bodies) and {@code XxxBolt} (descriptors with SOFARPC's header and error mapping) must match
 * {@code src/test/resources/golden/expected/sofademo} byte for byte; the other generated files are boltgen's own
 * dialect, which {@link GoldenTest} guards.
 *
 * <p>After an intended change, regenerate and review the diff:
 * <pre>mvn -pl bolt-processor test -Dtest=SofaRpcGoldenTest -Dboltgen.updateGoldens=true</pre>
 */
class SofaRpcGoldenTest {

  private static final List<String> INPUTS =
      List.of("Accounts", "Account", "Owner", "AccountKind", "Refused", "Echo", "EchoRequest", "EchoReply");
  private static final List<String> GENERATED =
      List.of("AccountsBolt", "AccountsBoltSofaRpc", "EchoBolt", "EchoBoltSofaRpc");

  private static Compilation compile() {
    JavaFileObject[] sources = INPUTS.stream()
        .map(name -> JavaFileObjects.forSourceString("sofademo." + name,
            resource("input/sofademo/" + name + ".java.txt")))
        .toArray(JavaFileObject[]::new);
    return ValidationTest.compile(sources);
  }

  @Test
  void generatedCodeMatchesTheGoldenFiles() throws IOException {
    Compilation c = compile();
    assertThat(c).succeededWithoutWarnings();
    for (String name : GENERATED) {
      check("expected/sofademo/" + name + ".java.txt", text(c, name));
    }
  }

  @Test
  void outputIsDeterministic() {
    Compilation first = compile();
    Compilation second = compile();
    for (String name : GENERATED) {
      assertThat(text(second, name)).as(name).isEqualTo(text(first, name));
    }
  }

  private static String text(Compilation c, String name) {
    try {
      return c.generatedSourceFile("sofademo." + name).orElseThrow().getCharContent(true).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
