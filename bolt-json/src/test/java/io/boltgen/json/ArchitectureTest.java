package io.boltgen.json;

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
 * The JSON module's shape: its public types are exactly those of the table in docs/json.md, it uses the
 * runtime's API and support but never its internals or its transport tier, and the runtime never uses it nor
 * Jackson (a service that speaks only Bolt does without both).
 */
class ArchitectureTest {

  private static JavaClasses module;

  @BeforeAll
  static void importModule() {
    module = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.boltgen.json");
  }

  @Test
  void publicTypesAreExactlyThoseTheDocsList() {
    Set<String> actual = module.stream()
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
            && !c.getSimpleName().equals("package-info"))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(actual).as("public types of bolt-json vs the table in docs/json.md")
        .isEqualTo(DocTables.firstColumn(DocTables.repositoryFile("docs/json.md"), "## The module"));
  }

  @Test
  void usesOnlyTheRuntimesApiAndSupport() {
    classes().should().onlyDependOnClassesThat().resideInAnyPackage("io.boltgen.json..", "io.boltgen.runtime",
            "io.boltgen.runtime.cluster", "io.boltgen.runtime.codec.protobuf", "io.boltgen.runtime.support",
            "tools.jackson.core..", "java..", "com.google.errorprone.annotations..")
        .check(module);
  }

  @Test
  void theRuntimeUsesNeitherItNorJackson() {
    JavaClasses runtime = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.boltgen.runtime");
    assertThat(runtime.size()).as("runtime classes found").isGreaterThan(100);
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.boltgen.json..", "tools.jackson..")
        .check(runtime);
  }
}
