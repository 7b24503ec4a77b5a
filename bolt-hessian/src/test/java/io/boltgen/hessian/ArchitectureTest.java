package io.boltgen.hessian;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
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
 * The Hessian module's shape: its public types are exactly those of the table in docs/hessian.md, and it stands on
 * Netty's buffers and the JDK alone (no boltgen module: the runtime depends on it, so it cannot depend on the
 * runtime, and its messages carry no text of the peer, which the callers quote with the runtime's helper).
 */
class ArchitectureTest {

  private static JavaClasses module;

  @BeforeAll
  static void importModule() {
    module = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.boltgen.hessian");
  }

  @Test
  void publicTypesAreExactlyThoseTheDocsList() {
    Set<String> documented = DocTables.firstColumn(DocTables.repositoryFile("docs/hessian.md"), "## The module");
    Set<String> actual = module.stream()
        .filter(c -> c.isTopLevelClass() && c.getModifiers().contains(JavaModifier.PUBLIC)
            && !c.getSimpleName().equals("package-info"))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(actual).as("public types of bolt-hessian vs the table in docs/hessian.md").isEqualTo(documented);
  }

  @Test
  void dependsOnlyOnNettysBuffersAndTheJdk() {
    assertThat(module.size()).as("bolt-hessian classes found").isGreaterThan(5);
    classes().should().onlyDependOnClassesThat().resideInAnyPackage("io.boltgen.hessian", "io.netty.buffer..",
            "io.netty.util..", "java..", "com.google.errorprone.annotations..")
        .check(module);
  }
}
