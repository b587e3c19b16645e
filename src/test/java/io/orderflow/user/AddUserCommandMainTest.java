package io.orderflow.user;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainLauncher;
import io.quarkus.test.junit.main.QuarkusMainTest;

/**
 * The add-user command launched as the packaged app's main method is: it runs and exits without
 * serving HTTP, with its exit code. The launcher puts its own console in place of stdin, so this
 * launch stops before a password is read; {@link SignInTest} drives the command with passwords, and
 * {@link ServiceMainTest} the commands it refuses (each launch here costs a start of the app).
 */
@QuarkusMainTest
@WithTestResource(TestServers.class)
class AddUserCommandMainTest {

    @Test
    void refusesATakenNameAndExitsWithoutServingHttp(QuarkusMainLauncher launcher) {
        LaunchResult taken = launcher.launch("add-user", "ops", "staff");
        String everything = taken.getOutput() + "\n" + taken.getErrorOutput();
        assertThat(taken.exitCode()).as(everything).isEqualTo(AddUserCommand.NAME_TAKEN);
        assertThat(taken.getErrorOutput()).contains("User ops already exists; nothing changed.");
        // The start is logged, with no address where an HTTP server listens (a served app logs "Listening on: http://...").
        assertThat(everything).contains("started in").doesNotContain("Listening on: http");
    }
}
