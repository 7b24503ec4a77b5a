package io.boltgen.runtime.internal.http;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

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
 * The HTTP module's shape: its public types are exactly those of the table in docs/http.md (the
 * {@code ServiceLoader} entry, the SPI of the protocols on its HTTP/2 streams, and the message forms they share),
 * and it uses the runtime's internals only through the port protocol's interfaces ({@code PortProtocol},
 * {@code PortConnection}, {@code Channels}); everything else it uses of the runtime is the API, the transport tier,
 * the codecs and {@code support}.
 */
class ArchitectureTest {

  private static final String INTERNAL = "io.boltgen.runtime.internal";

  private static JavaClasses http;

  @BeforeAll
  static void importModule() {
    http = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages(INTERNAL + ".http");
  }

  @Test
  void publicTypesAreExactlyThoseTheDocsList() {
    Set<String> documented = DocTables.firstColumn(DocTables.repositoryFile("docs/http.md"), "## The module");
    Set<String> actual = http.stream()
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
            && !c.getSimpleName().equals("package-info"))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(actual).as("public types of bolt-http vs the table in docs/http.md").isEqualTo(documented)
        .containsExactly(INTERNAL + ".http.Http2StreamProtocol", INTERNAL + ".http.HttpCall",
            INTERNAL + ".http.HttpCallProtocol", INTERNAL + ".http.HttpProtocol",
            INTERNAL + ".http.LengthPrefixedMessages", INTERNAL + ".http.MessageForms");
  }

  @Test
  void usesTheRuntimesInternalsOnlyThroughThePortProtocol() {
    classes().should().onlyDependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
            "outside the runtime's internals, or the port protocol's interfaces",
            c -> !c.getPackageName().equals(INTERNAL) || Set.of("PortProtocol", "PortProtocol$Factory",
                "PortConnection", "Channels").contains(c.getName().substring(INTERNAL.length() + 1))))
        .check(http);
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.boltgen.sofarpc..").check(http);
  }
}
