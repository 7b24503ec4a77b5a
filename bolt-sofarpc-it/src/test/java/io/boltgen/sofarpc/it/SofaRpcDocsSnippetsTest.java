package io.boltgen.sofarpc.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java snippets of docs/sofarpc.md, as written: every code line of them is a line of this module's test
 * sources, where the interop tests run them against a real SOFARPC; and every snippet that declares types
 * compiles as it stands, through boltgen's processor, without an error or a warning.
 */
class SofaRpcDocsSnippetsTest {

  private static final Pattern SNIPPET = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern DECLARED = Pattern.compile("(?:class|interface|record|enum) (\\w+)");

  @Test
  void everyDeclarationSnippetCompilesThroughTheProcessor(@TempDir Path out) throws IOException {
    String text = Files.readString(Path.of("..", "docs", "sofarpc.md"), StandardCharsets.UTF_8);
    Matcher m = SNIPPET.matcher(text);
    int compiled = 0;
    while (m.find()) {
      String snippet = m.group(1);
      if (!snippet.startsWith("@") && !snippet.startsWith("/**") && !snippet.startsWith("public ")) {
        continue; // statements, run as written by the interop tests (the lines above)
      }
      compiled++;
      String pkg = "snippet" + compiled;
      // the snippet's own types; the interop's records and the provider's protobuf classes it uses, by name
      String imports = "import io.boltgen.annotation.*;\nimport static io.boltgen.annotation.BoltScalar.Type.*;\n"
          + "import java.util.*;\n" + (snippet.contains("EchoServiceOwnClasses") ? "import com.example.sofa.proto.*;\n"
          : "import io.boltgen.sofarpc.it.hessian.*;\nimport io.boltgen.sofarpc.it.proto.*;\n");
      List<Path> files = new ArrayList<>();
      for (String declaration : snippet.split("\\n\\n(?=[@/p])")) {
        Matcher name = DECLARED.matcher(declaration);
        assertThat(name.find()).as("a type in %s", declaration).isTrue();
        Path file = out.resolve("src").resolve(pkg).resolve(name.group(1) + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "package " + pkg + ";\n\n" + imports + "\n" + declaration, StandardCharsets.UTF_8);
        files.add(file);
      }
      JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
      DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
      try (StandardJavaFileManager fm = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
        Files.createDirectories(out.resolve("classes"));
        Files.createDirectories(out.resolve("generated"));
        boolean ok = javac.getTask(null, fm, diagnostics, List.of("-classpath", System.getProperty("java.class.path"),
                "-d", out.resolve("classes").toString(), "-s", out.resolve("generated").toString(),
                "-processor", "io.boltgen.processor.BoltProcessor", "--release", "17"),
            null, fm.getJavaFileObjectsFromPaths(files)).call();
        assertThat(diagnostics.getDiagnostics()).as("snippet %d:\n%s", compiled, snippet)
            .noneMatch(d -> d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING
                || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING);
        assertThat(ok).isTrue();
      }
    }
    assertThat(compiled).as("declaration snippets").isGreaterThanOrEqualTo(4);
  }

  @Test
  void everySnippetLineIsRunByTheInteropTests() throws IOException {
    String text = Files.readString(Path.of("..", "docs", "sofarpc.md"), StandardCharsets.UTF_8);
    Matcher m = SNIPPET.matcher(text);
    List<String> snippet = new ArrayList<>();
    while (m.find()) {
      for (String line : m.group(1).split("\n")) {
        String code = line.replaceAll("\\s*//.*$", "").strip();
        if (!code.isEmpty()) {
          snippet.add(code);
        }
      }
    }
    assertThat(snippet).isNotEmpty();
    List<String> sources = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src", "test", "java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          sources.add(line.replaceAll("\\s*//.*$", "").strip());
        }
      }
    }
    assertThat(sources).containsAll(snippet);
  }
}
