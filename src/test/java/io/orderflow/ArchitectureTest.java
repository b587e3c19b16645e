package io.orderflow;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The package graph stays a house the next engineer can live in: each feature package can be read,
 * changed and tested from the ones beneath it, and shared code is beneath them all.
 */
@Tag("fast")
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.orderflow");

    @Test
    void featurePackagesFormNoCycle() {
        slices().matching("io.orderflow.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void sharedDependsOnNoFeature() {
        noClasses().that().resideInAPackage("io.orderflow.shared..")
                .should().dependOnClassesThat(resideInAPackage("io.orderflow..").and(resideOutsideOfPackage("io.orderflow.shared..")))
                .check(MAIN);
    }
}
