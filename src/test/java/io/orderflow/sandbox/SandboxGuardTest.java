package io.orderflow.sandbox;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** The sandbox providers start only in the profiles they are for. */
@FastTest
class SandboxGuardTest {

    @Test
    void aProductionDeploymentWithTheSandboxOnDoesNotStart() {
        assertThatThrownBy(() -> SandboxGuard.require(true, List.of("prod"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("orders.sandbox.enabled is true in profile prod");
        assertThatThrownBy(() -> SandboxGuard.require(true, List.of("staging"))).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void devTestAndDemoRunIt() {
        for (String profile : List.of("dev", "test", "demo")) {
            assertThatCode(() -> SandboxGuard.require(true, List.of(profile))).doesNotThrowAnyException();
        }
    }

    @Test
    void productionWithTheSandboxOffStarts() {
        assertThatCode(() -> SandboxGuard.require(false, List.of("prod"))).doesNotThrowAnyException();
    }
}
