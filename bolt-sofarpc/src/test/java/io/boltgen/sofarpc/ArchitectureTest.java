package io.boltgen.sofarpc;

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
 * The SOFARPC module's shape: its public types are exactly those of the table in docs/sofarpc.md, it uses the
 * runtime's API, generated and support tiers and bolt-hessian but never the runtime's internals or its transport
 * tier, and the runtime never uses it (a service that speaks only Bolt does without it).
 */
class ArchitectureTest {

  private static JavaClasses module;

  @BeforeAll
  static void importModule() {
    module = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.boltgen.sofarpc");
  }

  @Test
  void publicTypesAreExactlyThoseTheDocsList() {
    Set<String> documented = DocTables.firstColumn(DocTables.repositoryFile("docs/sofarpc.md"), "## The module");
    Set<String> actual = module.stream()
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
            && !c.getSimpleName().equals("package-info"))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(actual).as("public types of bolt-sofarpc vs the table in docs/sofarpc.md").isEqualTo(documented);
  }

  @Test
  void usesOnlyTheRuntimesApiGeneratedAndSupportTiersAndHessian() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("io.boltgen.runtime.internal..", "io.boltgen.runtime.call..")
        .check(module);
    classes().should().onlyDependOnClassesThat().resideInAnyPackage("io.boltgen.sofarpc..", "io.boltgen.hessian",
            "io.boltgen.runtime", "io.boltgen.runtime.codec..", "io.boltgen.runtime.support", "io.netty.buffer..",
            "io.netty.util..", "java..", "org.slf4j..", "com.google.errorprone.annotations..")
        .check(module);
  }

  @Test
  void theRuntimeNeverUsesIt() {
    JavaClasses runtime = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.boltgen.runtime");
    assertThat(runtime.size()).as("runtime classes found").isGreaterThan(100);
    noClasses().should().dependOnClassesThat().resideInAPackage("io.boltgen.sofarpc..").check(runtime);
  }
}
