package io.orderflow;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;

import io.orderflow.shared.StopsWithTheApp;
import io.orderflow.shared.security.SignInListener;
import io.orderflow.support.FastTest;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.security.spi.runtime.AuthenticationSuccessEvent;
import io.quarkus.security.spi.runtime.SecurityEvent;

/**
 * The package graph stays a house the next engineer can live in: each feature package can be read,
 * changed and tested from the ones beneath it, and shared code is beneath them all. The layers are
 * the walls CONTRIBUTING.md draws ("Packages and their walls").
 */
@FastTest
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.orderflow");

    /** From the top: who may use whom. A layer may use its own packages and any layer beneath it, never one above. */
    static final LayeredArchitecture LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("pages").definedBy("io.orderflow.web..", "io.orderflow.login..")
            .layer("follow-ups").definedBy("io.orderflow.payment..", "io.orderflow.warehouse..", "io.orderflow.deadline..",
                    "io.orderflow.events..")
            .layer("orders").definedBy("io.orderflow.order..")
            .layer("building blocks").definedBy("io.orderflow.token..", "io.orderflow.catalog..", "io.orderflow.outbox..",
                    "io.orderflow.idempotency..", "io.orderflow.lifecycle..", "io.orderflow.user..", "io.orderflow.retention..",
                    "io.orderflow.customer..")
            .layer("shared").definedBy("io.orderflow.shared..")
            .layer("sandbox").definedBy("io.orderflow.sandbox..")
            .whereLayer("pages").mayNotBeAccessedByAnyLayer()
            .whereLayer("follow-ups").mayOnlyBeAccessedByLayers("pages")
            .whereLayer("orders").mayOnlyBeAccessedByLayers("pages", "follow-ups")
            .whereLayer("building blocks").mayOnlyBeAccessedByLayers("pages", "follow-ups", "orders", "sandbox")
            // The sandbox stands in for third parties: the service reaches it over HTTP only, like a real provider.
            .whereLayer("sandbox").mayNotBeAccessedByAnyLayer();

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

    @Test
    void layersUseOnlyTheLayersBeneathThem() {
        LAYERS.check(MAIN);
    }

    @Test
    void resourcesAreCalledOnlyOverHttp() {
        noClasses().that().haveSimpleNameNotEndingWith("Resource")
                .should().dependOnClassesThat().haveSimpleNameEndingWith("Resource")
                .check(MAIN);
    }

    /**
     * Quarkus fires its success events, on another thread, for every authenticated request as soon as anything
     * observes them: a sign-in's success is learnt as a {@link SignInListener} instead.
     */
    @Test
    void nothingObservesEverySuccessfulSignIn() {
        noClasses().should().dependOnClassesThat().belongToAnyOf(AuthenticationSuccessEvent.class, SecurityEvent.class)
                .because("Quarkus would fire it on every request; implement SignInListener").check(MAIN);
    }

    @Test
    void scheduledWorkStopsWithTheApp() {
        methods().that().areAnnotatedWith(Scheduled.class).should().beAnnotatedWith(StopsWithTheApp.class).check(MAIN);
    }
}
