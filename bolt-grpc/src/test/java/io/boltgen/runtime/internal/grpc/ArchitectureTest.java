package io.boltgen.runtime.internal.grpc;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.boltgen.testing.DocTables;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gRPC module's shape: its public types are exactly those of the table in docs/grpc.md (the
 * {@code ServiceLoader} entry); it uses the runtime's internals only through {@code PortConnection} and {@code Channels}, and bolt-http
 * only through its SPI for HTTP/2 stream protocols and the message forms it shares.
 */
class ArchitectureTest {

  private static final String INTERNAL = "io.boltgen.runtime.internal";

  private static JavaClasses grpc;

  @BeforeAll
  static void importModule() {
    grpc = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(INTERNAL + ".grpc");
  }

  @Test
  void publicTypesAreExactlyThoseTheDocsList() {
    Set<String> documented = DocTables.firstColumn(DocTables.repositoryFile("docs/grpc.md"), "## The module");
    Set<String> actual = grpc.stream()
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
            && !c.getSimpleName().equals("package-info"))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(actual).as("public types of bolt-grpc vs the table in docs/grpc.md").isEqualTo(documented)
        .containsExactly(INTERNAL + ".grpc.GrpcProtocol");
  }

  @Test
  void usesTheRuntimesInternalsAndHttpOnlyThroughTheirInterfaces() {
    classes().should().onlyDependOnClassesThat(DescribedPredicate.describe(
            "outside the runtime's internals and bolt-http, or PortConnection, Channels, Http2StreamProtocol,"
                + " HttpCallProtocol, HttpCall, MessageForms, LengthPrefixedMessages",
            (JavaClass c) -> {
              if (c.getPackageName().equals(INTERNAL)) {
                return c.getName().equals(INTERNAL + ".PortConnection") || c.getName().equals(INTERNAL + ".Channels");
              }
              if (c.getPackageName().equals(INTERNAL + ".http")) {
                return c.getName().startsWith(INTERNAL + ".http.Http2StreamProtocol")
                    || c.getName().startsWith(INTERNAL + ".http.HttpCall") // HttpCallProtocol, HttpCall and theirs
                    || c.getName().equals(INTERNAL + ".http.MessageForms")
                    || c.getName().startsWith(INTERNAL + ".http.LengthPrefixedMessages"); // and its Message, Refusal
              }
              return !c.getPackageName().startsWith(INTERNAL + ".") || c.getPackageName().equals(INTERNAL + ".grpc");
            }))
        .check(grpc);
  }
}
