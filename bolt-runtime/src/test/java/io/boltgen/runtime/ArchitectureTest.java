package io.boltgen.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime's shape: packages import one way (no cycle), the API never reaches into the internals, only
 * the two protobuf-message classes use the optional protobuf-java, the support helpers shared with boltgen's
 * other modules are marked {@code @Internal}, stand on their own and never show in an API signature, the
 * public types are exactly those docs/runtime.md lists with their tier, and no main source file of the
 * project grows past 500 lines (the median stays at most 150).
 */
class ArchitectureTest {

  private static final String SUPPORT = "io.boltgen.runtime.support";
  private static final String INTERNAL = "io.boltgen.runtime.internal";

  private static JavaClasses runtime;

  @BeforeAll
  static void importRuntime() {
    runtime = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.boltgen.runtime");
  }

  @Test
  void packagesHaveNoCycle() {
    slices().matching("io.boltgen.(**)").should().beFreeOfCycles().check(runtime);
  }

  @Test
  void apiAndGeneratedCodeTiersNeverImportTheInternals() {
    noClasses().that().resideInAnyPackage("io.boltgen.runtime", "io.boltgen.runtime.service",
            "io.boltgen.runtime.codec..", "io.boltgen.runtime.cluster", "io.boltgen.runtime.call")
        .should().dependOnClassesThat().resideInAPackage("io.boltgen.runtime.internal..")
        .check(runtime);
  }

  @Test
  void theApiTierDoesNotExposeNettyExceptThroughMarshallers() {
    noClasses().that().resideInAPackage("io.boltgen.runtime")
        .should().dependOnClassesThat().resideInAPackage("io.netty..")
        .check(runtime);
  }

  @Test
  void onlyTheProtobufMessageClassesUseProtobufJava() {
    // protobuf-java is an optional dependency: services without protobuf messages run without it, so no
    // class that they load may refer to it (a catch clause or a signature is enough to fail verification)
    noClasses().that().doNotHaveFullyQualifiedName("io.boltgen.runtime.codec.protobuf.ProtoMessages")
        .and().doNotHaveFullyQualifiedName("io.boltgen.runtime.codec.protobuf.MessageMarshaller")
        .should().dependOnClassesThat().resideInAPackage("com.google.protobuf..")
        .check(runtime);
  }

  @Test
  void supportDependsOnNoOtherPartOfTheRuntime() {
    // so that every tier, and the registries, may use it without a cycle (Error Prone's annotations are read by
    // the compiler only: class retention, and no dependency of the runtime's users)
    classes().that().resideInAPackage(SUPPORT)
        .should().onlyDependOnClassesThat().resideInAnyPackage(SUPPORT, "java..", "org.slf4j..",
            "com.google.errorprone.annotations..")
        .check(runtime);
  }

  @Test
  void exactlyThePublicSupportTypesAreMarkedInternal() {
    Set<String> marked = runtime.stream()
        .filter(c -> c.isAnnotatedWith(SUPPORT + ".Internal"))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(marked).isNotEmpty().isEqualTo(publicTypes(SUPPORT));
  }

  @Test
  void noApiOrGeneratedSignatureMentionsTheSupportTypes() {
    // an application never sees them: the API may use them inside, never in what it offers
    List<String> leaks = runtime.stream()
        .filter(c -> !c.getPackageName().equals(SUPPORT) && !c.getPackageName().startsWith(INTERNAL))
        .filter(c -> c.getModifiers().contains(JavaModifier.PUBLIC))
        .flatMap(c -> c.getMembers().stream())
        .filter(m -> !m.getModifiers().contains(JavaModifier.PRIVATE))
        .filter(m -> signature(m).anyMatch(t -> t.getPackageName().equals(SUPPORT)))
        .map(JavaMember::getFullName)
        .collect(Collectors.toList());
    assertThat(leaks).isEmpty();
  }

  /** The types a member's signature names: a field's type; a method's result, parameters and exceptions. */
  private static Stream<JavaClass> signature(JavaMember member) {
    if (member instanceof JavaField field) {
      return Stream.of(field.getRawType());
    }
    JavaCodeUnit code = (JavaCodeUnit) member;
    return Stream.of(Stream.of(code.getRawReturnType()), code.getRawParameterTypes().stream(),
        code.getExceptionTypes().stream()).flatMap(s -> s);
  }

  @Test
  void noDialectConstantInTheApi() throws ReflectiveOperationException {
    // SOFARPC's classNames and headers live in its module, bolt-sofarpc: no API or generated type of the core
    // carries a constant of that dialect (the internals name SOFABolt's own classes, which are Bolt's)
    List<String> found = new ArrayList<>();
    for (JavaClass c : runtime) {
      if (c.getPackageName().startsWith(INTERNAL) || c.getPackageName().equals(SUPPORT)) {
        continue;
      }
      for (JavaField field : c.getFields()) {
        Set<JavaModifier> modifiers = field.getModifiers();
        if (modifiers.contains(JavaModifier.STATIC) && modifiers.contains(JavaModifier.FINAL)
            && field.getRawType().isEquivalentTo(String.class)) {
          java.lang.reflect.Field f = Class.forName(c.getName()).getDeclaredField(field.getName());
          f.setAccessible(true);
          String value = String.valueOf(f.get(null)).toLowerCase(java.util.Locale.ROOT);
          if (value.contains("sofa.rpc") || value.startsWith("sofa_")) {
            found.add(c.getName() + "." + field.getName() + " = " + value);
          }
        }
      }
    }
    assertThat(runtime.size()).isGreaterThan(100);
    assertThat(found).isEmpty();
  }

  @Test
  void theWireKnowsNothingOfConnectionsCallsOrServers() {
    // internal.wire is where a frame's bytes are read and written: it uses the API's values (statuses, the wire
    // protocol, exceptions), Netty's buffers and codecs, the support helpers and bolt-hessian (SOFABolt's error
    // bodies), never the rest of the internals nor the call tier, so that the codec can be read, tested and fuzzed
    // alone
    classes().that().resideInAPackage(INTERNAL + ".wire")
        .should().onlyDependOnClassesThat().resideInAnyPackage(INTERNAL + ".wire", "io.boltgen.runtime",
            "io.boltgen.runtime.codec", SUPPORT, "io.boltgen.hessian", "io.netty.buffer..", "io.netty.handler.codec..",
            "io.netty.channel..", "io.netty.util..", "java..", "org.slf4j..", "com.google.errorprone.annotations..")
        .check(runtime);
  }

  @Test
  void theInternalPackagesImportDownwardOnly() {
    // provider (makes clients and servers) > cluster (calls to a service's instances) and server (Bolt requests
    // served) > internal (connections, calls sent) > wire (frames): a type is public in one of them only for a
    // package above it, and the ServiceLoader entry is the one public type of provider
    noClasses().that().resideInAnyPackage(INTERNAL, INTERNAL + ".cluster", INTERNAL + ".server", INTERNAL + ".wire")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + ".provider").check(runtime);
    noClasses().that().resideInAnyPackage(INTERNAL, INTERNAL + ".server", INTERNAL + ".wire")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + ".cluster").check(runtime);
    noClasses().that().resideInAnyPackage(INTERNAL, INTERNAL + ".cluster", INTERNAL + ".wire")
        .should().dependOnClassesThat().resideInAPackage(INTERNAL + ".server").check(runtime);
    assertThat(publicTypes(INTERNAL + ".provider")).containsExactly(INTERNAL + ".provider.NettyRuntimeProvider");
  }

  @Test
  void theCoreUsesNoJackson() {
    // JSON is bolt-json's (the proto3 codecs, strict reading, the registries' instance record): a service that
    // speaks only Bolt runs without Jackson
    noClasses().should().dependOnClassesThat().resideInAnyPackage("tools.jackson..", "com.fasterxml.jackson..")
        .check(runtime);
  }

  @Test
  void theCoreUsesNoHttpCodec() {
    // HTTP/1.1 and HTTP/2 are bolt-http's, the port protocol the core finds by ServiceLoader: a service that
    // speaks only Bolt runs without Netty's HTTP codecs
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.netty.handler.codec.http..", "io.netty.handler.codec.http2..")
        .check(runtime);
  }

  @Test
  void publicTypesAreExactlyThoseTheDocsList() throws IOException {
    Set<String> documented = new TreeSet<>();
    String text = Files.readString(docs());
    int tiers = text.indexOf("## Tiers");
    assertThat(tiers).as("docs/runtime.md has a Tiers section").isNotNegative();
    int end = text.indexOf("\n## ", tiers + 1);
    Matcher row = Pattern.compile("(?m)^\\| `([\\w.]+)` \\|")
        .matcher(text.substring(tiers, end < 0 ? text.length() : end));
    while (row.find()) {
      documented.add(row.group(1));
    }
    Set<String> actual = runtime.stream()
        .filter(ArchitectureTest::isPublicTopLevel)
        .map(c -> c.getName().substring("io.boltgen.runtime.".length()))
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(actual).as("public types of bolt-runtime vs the table in docs/runtime.md").isEqualTo(documented);
    // 34: ProtoTypes (JDK value types) and ProtoMessages (protobuf-java kept out of what every codec loads);
    // 36: ClientInterceptor and ServerInterceptor, the one extension point around calls
    // 41: the cluster package (instances, resolvers, registries, registrations, balancing policies)
    // 42: InstanceRecord, the one codec of the value every registry stores, so that the registry modules
    //     (and other tools) share the format instead of each writing its own and drifting apart
    // 46: TLS settings, the peer's identity, the allow-list and its exception
    // 47: NettyVersion, the check of the Netty on the class path, which frameworks run and report at start-up
    // 52: the JSON form of messages: its SPI (JsonMarshaller, ProtoJson, ProtoJsonException) and what the
    //     generated JSON codecs call (JsonReader, JsonValues)
    // 57: SOFARPC's Hessian for generated codecs (HessianWriter, HessianReader, HessianType, HessianClass,
    //     HessianException)
    // 61: SOFARPC's protocol for services in its dialect: answers carrying failures (FailureMarshaller), its names
    //     (SofaRpc) and its protobuf and Hessian2 bodies (SofaRpcProtobuf, SofaRpcHessian)
    // 65: Deadline, and the transport tier every protocol's calls go through (ServerCalls, ServerStream, CallStatus)
    // 57: SOFARPC's dialect and its Hessian moved to their own module, bolt-sofarpc (8 types); the internal types
    //     public for ServiceLoader and the port protocol SPI are not offered, and not counted
    // 49: the JSON forms and InstanceRecord moved to bolt-json (6 types), and GeneratedService.of took over
    //     BoltServices; at most 50 from here on
    // 50: ClientCall, the one outgoing call as its caller drives it (shaped for streams), while ErrorMapper became
    //     MethodDescriptor.ErrorMapper, the method's own
    // 51: StatusCode in the transport tier, the one table by which a call's end becomes gRPC's and Connect's code,
    //     which each protocol module would otherwise copy
    // 52: Publishers, a correct demand-driven publisher for a streaming method's answer at hand, which each service
    //     without a reactive library would otherwise write (and get wrong) itself
    Set<String> offered = actual.stream().filter(name -> !name.startsWith("support.") && !name.startsWith("internal."))
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(offered).as("the public surface stays small").hasSizeLessThanOrEqualTo(52);
    // 4: the helpers boltgen's modules share (@Internal, not API): a rate-limited log, host:port, quoting for
    //    messages, and the annotation itself
    assertThat(actual.stream().filter(name -> name.startsWith("support."))).as("the shared support stays small")
        .hasSizeLessThanOrEqualTo(4);
  }

  @Test
  void mainSourceFilesStaySmall() throws IOException {
    Path root = docs().getParent().getParent();
    List<Long> lengths = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files
          .filter(f -> f.toString().endsWith(".java") && f.toString().contains("/src/main/java/"))
          .filter(f -> !f.toString().contains("/target/"))::iterator) {
        long lines;
        try (Stream<String> text = Files.lines(file)) {
          lines = text.count();
        }
        assertThat(lines).as("lines of %s", root.relativize(file)).isLessThanOrEqualTo(500);
        lengths.add(lines);
      }
    }
    Collections.sort(lengths);
    assertThat(lengths).isNotEmpty();
    assertThat(lengths.get(lengths.size() / 2)).as("median lines of a main source file").isLessThanOrEqualTo(150);
  }

  /**
   * A virtual thread that waits while it holds a monitor, or blocks entering one, pins its carrier on JDK 21 to
   * 23: the code a call runs through holds locks ({@code ReentrantLock}), never monitors. The runtime's only
   * {@code synchronized} blocks run once per client, server or certificate reload, never during a call.
   */
  @Test
  void noMonitorOnTheCallPath() throws IOException {
    Path main = docs().getParent().getParent().resolve("bolt-runtime/src/main/java");
    Pattern monitor = Pattern.compile("^[^*/]*\\bsynchronized\\b", Pattern.MULTILINE); // not in comments
    Set<String> withMonitors = new TreeSet<>();
    try (Stream<Path> files = Files.walk(main)) {
      for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
        if (monitor.matcher(Files.readString(file)).find()) {
          withMonitors.add(file.getFileName().toString());
        }
      }
    }
    assertThat(withMonitors).as("main sources of bolt-runtime with synchronized").containsExactlyInAnyOrder(
        "NettyVersion.java", // the Netty check, once per process
        "SharedResources.java", // the shared event loops, acquired and released with a client or server
        "TlsMaterial.java"); // a certificate reload
  }

  private static Set<String> publicTypes(String pkg) {
    return runtime.stream()
        .filter(c -> c.getPackageName().equals(pkg))
        .filter(ArchitectureTest::isPublicTopLevel)
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static boolean isPublicTopLevel(JavaClass c) {
    return c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
        && !c.getSimpleName().equals("package-info");
  }

  private static Path docs() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("docs/runtime.md"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("docs/runtime.md above " + Path.of("").toAbsolutePath()).isNotNull();
    return dir.resolve("docs/runtime.md");
  }
}
