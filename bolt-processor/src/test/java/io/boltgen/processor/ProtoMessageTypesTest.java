package io.boltgen.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
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
 * comes from the class path; protoc then compiles the emitted file against the user's. What protobuf-java
 * cannot describe is an error on the element that uses the class, saying why.
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
    return javaSources(javaOut);
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

  /**
   * A protobuf-java message's JSON form is its descriptor's, which generated code does not follow: a method that
   * reaches one has no JSON form, the others keep theirs.
   */
  @Test
  void aMethodReachingAUserMessageHasNoJsonForm() throws Exception {
    List<JavaFileObject> sources = new ArrayList<>(generatedJava());
    sources.add(JavaFileObjects.forSourceString("test.Shop", String.join("\n",
        "package test;",
        "import com.example.shop.Order;",
        "import io.boltgen.annotation.BoltService;",
        "import java.util.List;",
        "@BoltService(name = \"test.Shop\")",
        "public interface Shop {",
        "  Order.Line first(Order order);",
        "  Basket basket(String id);",
        "  String name(String id, com.google.protobuf.Timestamp at);",
        "  record Basket(List<Order> orders) {}",
        "}")));
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).compile(sources);
    assertThat(c).succeeded();
    String holder = c.generatedSourceFile("test.ShopBolt").orElseThrow().getCharContent(true).toString();
    assertThat(holder)
        .contains(".extension(JsonForms.class, JsonForms.of(ShopBoltJson.NAME_REQUEST, ShopBoltJson.NAME_RESPONSE))")
        .doesNotContain("ShopBoltJson.FIRST_", "ShopBoltJson.BASKET_");
    assertThat(holder.split("\\.protoService\\(\"test\\.shop\\.Shop\"\\)", -1)).hasSize(4);
  }

  @Test
  void aMessageFromTheClassPathIsTypedFromItsDescriptor() throws Exception {
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(classPathWith(compiled(javaOut)))
        .compile(JavaFileObjects.forSourceString("test.Shop", SERVICE));
    assertThat(c).succeeded();
    assertTypedAndCompilable(proto(c));
  }

  @Test
  void aMessageCompiledWithTheServiceMayImportFilesFromTheClassPath() throws Exception {
    Files.writeString(protoRoot.resolve("shop/v1/money.proto"), String.join("\n",
        "syntax = \"proto3\";",
        "package shop.v1;",
        "option java_package = \"com.example.money\";",
        "message Money { int64 cents = 1; }",
        ""));
    Files.writeString(protoRoot.resolve("shop/v1/price.proto"), String.join("\n",
        "syntax = \"proto3\";",
        "package shop.v1;",
        "import \"google/protobuf/timestamp.proto\";",
        "import \"shop/v1/money.proto\";",
        "option java_package = \"com.example.price\";",
        "message Price { Money amount = 1; google.protobuf.Timestamp since = 2; }",
        ""));
    Path timestamp = protoRoot.resolve("google/protobuf/timestamp.proto");
    Files.createDirectories(timestamp.getParent());
    try (var in = com.google.protobuf.Timestamp.class.getResourceAsStream("/google/protobuf/timestamp.proto")) {
      Files.write(timestamp, in.readAllBytes());
    }
    Path moneyJava = dir.resolve("money-java");
    Path priceJava = dir.resolve("price-java");
    Files.createDirectories(moneyJava);
    Files.createDirectories(priceJava);
    run(PROTOC.toString(), "-I" + protoRoot, "--java_out=" + moneyJava, "shop/v1/money.proto");
    run(PROTOC.toString(), "-I" + protoRoot, "--java_out=" + priceJava, "shop/v1/price.proto");
    // Money comes compiled from the class path; Price (protoc's nested class in PriceOuterClass) is compiled
    // with the service, and the descriptor of its file needs Money's and Timestamp's
    List<JavaFileObject> sources = new ArrayList<>(javaSources(priceJava));
    sources.add(JavaFileObjects.forSourceString("test.Prices", String.join("\n",
        "package test;",
        "import com.example.price.PriceOuterClass.Price;",
        "@io.boltgen.annotation.BoltService(name = \"test.Prices\")",
        "public interface Prices {",
        "  Price current(String sku);",
        "}")));
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
        .withClasspath(classPathWith(compiled(moneyJava))).compile(sources);
    assertThat(c).succeeded();
    String proto = c.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/boltgen/test.Prices.proto").orElseThrow()
        .getCharContent(true).toString();
    assertThat(proto).contains("import \"shop/v1/price.proto\";").contains(".shop.v1.Price value = 1;");
    // the binary descriptors served by reflection: the imported files as protobuf-java compiled them, each after
    // those it imports, then the service's: what protoc makes of the emitted .proto
    Path emitted = dir.resolve("emitted/test.Prices.proto");
    Files.createDirectories(emitted.getParent());
    Files.writeString(emitted, proto);
    Path protocSet = dir.resolve("prices.pb");
    run(PROTOC.toString(), "-I" + emitted.getParent(), "-I" + protoRoot, "--include_imports",
        "--descriptor_set_out=" + protocSet, "test.Prices.proto");
    FileDescriptorSet expected = FileDescriptorSet.parseFrom(Files.readAllBytes(protocSet));
    FileDescriptorSet actual = FileDescriptorSet.parseFrom(c.generatedFile(StandardLocation.CLASS_OUTPUT,
        "META-INF/boltgen/test.Prices.protoset").orElseThrow().openInputStream());
    assertThat(actual.getFileList().stream().map(f -> f.getName()))
        .containsExactly("google/protobuf/timestamp.proto", "shop/v1/money.proto", "shop/v1/price.proto",
            "test.Prices.proto");
    assertThat(actual.getFile(0)).isEqualTo(expected.getFile(0));
    assertThat(actual.getFile(3)).isEqualTo(expected.getFile(3));
    // protoc leaves the fields' JSON names out of the descriptors it embeds in Java code: those are the files'
    for (int i = 1; i <= 2; i++) {
      assertThat(actual.getFile(i)).isEqualTo(withoutJsonNames(expected.getFile(i)));
    }
  }

  private static FileDescriptorProto withoutJsonNames(FileDescriptorProto file) {
    FileDescriptorProto.Builder builder = file.toBuilder();
    for (DescriptorProto.Builder message : builder.getMessageTypeBuilderList()) {
      message.getFieldBuilderList().forEach(FieldDescriptorProto.Builder::clearJsonName);
    }
    return builder.build();
  }

  /**
   * {@code Instant} is a {@code google.protobuf.Timestamp} without protobuf-java on the class path: the descriptor
   * set then carries that file as its text declares it (no options), so reflection clients still resolve it.
   */
  @Test
  void timestampIsDescribedWithoutProtobufJava() throws Exception {
    List<File> classPath = classPathWith().stream().filter(f -> !f.getName().startsWith("protobuf-java")).toList();
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).withClasspath(classPath)
        .compile(JavaFileObjects.forSourceString("test.Clock", String.join("\n",
            "package test;",
            "@io.boltgen.annotation.BoltService(name = \"test.Clock\")",
            "public interface Clock {",
            "  java.time.Instant now(java.time.Duration offset);",
            "}")));
    assertThat(c).succeeded();
    FileDescriptorSet set = FileDescriptorSet.parseFrom(c.generatedFile(StandardLocation.CLASS_OUTPUT,
        "META-INF/boltgen/test.Clock.protoset").orElseThrow().openInputStream());
    assertThat(set.getFileList().stream().map(f -> f.getName()))
        .containsExactly("google/protobuf/duration.proto", "google/protobuf/timestamp.proto", "test.Clock.proto");
    FileDescriptorProto timestamp = set.getFile(1);
    assertThat(timestamp.getPackage()).isEqualTo("google.protobuf");
    assertThat(timestamp.getMessageType(0).getFieldList()).extracting(f -> f.getName() + "=" + f.getNumber()
        + ":" + f.getType()).containsExactly("seconds=1:TYPE_INT64", "nanos=2:TYPE_INT32");
    FileDescriptor built = null;
    java.util.Map<String, FileDescriptor> byName = new java.util.HashMap<>();
    for (FileDescriptorProto file : set.getFileList()) {
      built = FileDescriptor.buildFrom(file,
          file.getDependencyList().stream().map(byName::get).toArray(FileDescriptor[]::new));
      byName.put(file.getName(), built);
    }
    assertThat(built.findServiceByName("Clock").findMethodByName("now").getInputType().findFieldByNumber(1)
        .getMessageType().getFullName()).isEqualTo("google.protobuf.Duration");
  }

  @Test
  void aClassProtocDidNotGenerateIsAnErrorOnTheElementUsingIt() {
    JavaFileObject raw = JavaFileObjects.forSourceString("test.Raw", String.join("\n",
        "package test;",
        "@io.boltgen.annotation.BoltService(name = \"test.Raw\")",
        "public interface Raw {",
        "  void put(String key,",
        "      com.google.protobuf.DynamicMessage value);",
        "}"));
    Compilation c = Compiler.javac().withProcessors(new BoltProcessor()).compile(raw);
    assertThat(c).hadErrorContaining("[Bolt/ProtoDescriptorUnreadable] cannot type DynamicMessage (parameter value of"
        + " put()) in the .proto: com.google.protobuf.DynamicMessage is not a message class protoc generated: it has"
        + " no public static getDescriptor() returning com.google.protobuf.Descriptors.Descriptor, so its proto name"
        + " and file cannot be read; use protoc's Java output (java_out) for it, or a record")
        .inFile(raw).onLineContaining("DynamicMessage value");
    assertThat(c.errors()).hasSize(1);
  }

  /** protoc's output for a newer protobuf-java than the one on the class path: its static initializer throws. */
  @Test
  void aDescriptorProtobufJavaCannotBuildIsAnErrorSayingWhy() throws Exception {
    try (Stream<Path> walk = Files.walk(javaOut)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        Files.writeString(p, Files.readString(p).replaceAll("/\\* major= \\*/ \\d+", "/* major= */ 99"));
      }
    }
    for (boolean fromSource : new boolean[] {true, false}) {
      List<JavaFileObject> sources = new ArrayList<>(fromSource ? generatedJava() : List.of());
      JavaFileObject service = JavaFileObjects.forSourceString("test.Shop", SERVICE);
      sources.add(service);
      Compilation c = Compiler.javac().withProcessors(new BoltProcessor())
          .withClasspath(fromSource ? classPathWith() : classPathWith(compiled(javaOut))).compile(sources);
      assertThat(c).hadErrorContaining("[Bolt/ProtoDescriptorUnreadable] cannot type Order (parameter order of"
          + " first()) in the .proto: reading the proto descriptor of com.example.shop.Order with protobuf-java"
          + " (com.example.shop.Order.getDescriptor()) failed: com.google.protobuf.RuntimeVersion$"
          + "ProtobufRuntimeVersionException: ").inFile(service).onLineContaining("Order.Line first(");
      assertThat(c).hadErrorContaining("the class path of this compilation needs the protobuf-java version protoc's"
          + " output was generated for");
      // one error for Order and one for Order.Line, each on its first use only
      assertThat(c.errors()).as("from source: %s", fromSource).hasSize(2);
    }
  }

  private List<JavaFileObject> javaSources(Path root) throws IOException {
    List<JavaFileObject> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        String relative = root.relativize(p).toString();
        files.add(JavaFileObjects.forSourceString(relative.replace(".java", "").replace(File.separatorChar, '.'),
            Files.readString(p)));
      }
    }
    return files;
  }

  /** protoc's Java output under {@code java}, compiled into a directory of its own. */
  private Path compiled(Path java) throws IOException {
    Path classes = dir.resolve("classes-" + java.getFileName());
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        Stream<Path> walk = Files.walk(java)) {
      List<Path> sources = walk.filter(f -> f.toString().endsWith(".java")).toList();
      assertThat(javac.getTask(null, files, null, List.of("-d", classes.toString(), "-proc:none"), null,
          files.getJavaFileObjectsFromPaths(sources)).call()).isTrue();
    }
    return classes;
  }

  /** This test's class path (the runtime, protobuf-java) and {@code more}. */
  private static List<File> classPathWith(Path... more) {
    List<File> classPath = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      classPath.add(new File(entry));
    }
    for (Path p : more) {
      classPath.add(p.toFile());
    }
    return classPath;
  }
}
