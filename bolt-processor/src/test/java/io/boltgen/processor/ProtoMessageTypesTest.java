package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A protobuf-java message of the user's own {@code .proto} is typed by its proto name in the emitted
 * {@code .proto}, with the import of its file, whether protoc's Java output is compiled with the service or
 * comes from the class path; protoc then compiles the emitted file against the user's.
 */
class ProtoMessageTypesTest {

  private static final Path PROTOC = Path.of(System.getProperty("boltgen.protoc", "target/protoc/protoc.exe"));

  @TempDir Path dir;
  private Path protoRoot;
  private Path javaOut;

  private static final String SERVICE = String.join("\n",
      "package test;",
      "import com.example.shop.Order;",
      "import io.boltgen.annotation.BoltService;",
      "import java.util.List;",
      "@BoltService(name = \"test.Shop\")",
      "public interface Shop {",
      "  Order.Line first(Order order);",
      "  List<Order> all(Order.Line like);",
      "}");

  private void run(String... command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
  }

  @BeforeEach
  void generateJavaWithProtoc() throws Exception {
    PROTOC.toFile().setExecutable(true);
    protoRoot = dir.resolve("proto");
    javaOut = dir.resolve("java");
    Files.createDirectories(protoRoot.resolve("shop/v1"));
    Files.createDirectories(javaOut);
    Files.writeString(protoRoot.resolve("shop/v1/order.proto"), String.join("\n",
        "syntax = \"proto3\";",
        "package shop.v1;",
        "option java_package = \"com.example.shop\";",
        "option java_multiple_files = true;",
        "option java_outer_classname = \"OrderProtos\";",
        "message Order {",
        "  string id = 1;",
        "  message Line { string sku = 1; }",
        "  repeated Line lines = 2;",
        "}",
        ""));
    run(PROTOC.toString(), "-I" + protoRoot, "--java_out=" + javaOut, "shop/v1/order.proto");
  }

  private List<JavaFileObject> generatedJava() throws IOException {
    List<JavaFileObject> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(javaOut)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        String relative = javaOut.relativize(p).toString();
        files.add(JavaFileObjects.forSourceString(relative.replace(".java", "").replace(File.separatorChar, '.'),
            Files.readString(p)));
      }
    }
    return files;
  }

  private static String proto(Compilation c) throws IOException {
    return c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Shop.proto").orElseThrow()
        .getCharContent(true).toString();
  }

  private void assertTypedAndCompilable(String proto) throws Exception {
    assertThat(proto).contains("import \"shop/v1/order.proto\";")
        .contains(".shop.v1.Order order = 1;")
        .contains(".shop.v1.Order.Line value = 1;")
        .contains("repeated .shop.v1.Order value = 1;")
        .doesNotContain("bytes");
    Path emitted = dir.resolve("emitted/test.Shop.proto");
    Files.createDirectories(emitted.getParent());
    Files.writeString(emitted, proto);
    run(PROTOC.toString(), "-I" + emitted.getParent(), "-I" + protoRoot,
        "--descriptor_set_out=" + dir.resolve("shop.pb"), "test.Shop.proto");
  }

  @Test
  void aMessageCompiledWithTheServiceIsTypedFromItsSource() throws Exception {
    List<JavaFileObject> sources = new ArrayList<>(generatedJava());
    sources.add(JavaFileObjects.forSourceString("test.Shop", SERVICE));
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).compile(sources);
    assertThat(c).succeeded();
    assertTypedAndCompilable(proto(c));
  }

  @Test
  void aMessageFromTheClassPathIsTypedFromItsDescriptor() throws Exception {
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        Stream<Path> walk = Files.walk(javaOut)) {
      List<Path> java = walk.filter(f -> f.toString().endsWith(".java")).toList();
      assertThat(javac.getTask(null, files, null, List.of("-d", classes.toString(), "-proc:none"), null,
          files.getJavaFileObjectsFromPaths(java)).call()).isTrue();
    }
    List<File> classPath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classPath.add(new File(entry));
    }
    classPath.add(classes.toFile());
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(classPath)
        .compile(JavaFileObjects.forSourceString("test.Shop", SERVICE));
    assertThat(c).succeeded();
    assertTypedAndCompilable(proto(c));
  }
}
