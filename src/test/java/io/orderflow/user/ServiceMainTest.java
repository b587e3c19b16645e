package io.orderflow.user;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** The packaged app's commands refuse what they do not know before they touch the user store. */
@FastTest
class ServiceMainTest {

    /** No user store: a command that reached it would fail with a NullPointerException. */
    private final ServiceMain main = new ServiceMain(List.of(new AddUserCommand(null), new ListUsersCommand(null), new DisableUserCommand(null),
            new ResetPasswordCommand(null)));
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void anUnknownCommandIsRefusedWithTheUsage() {
        assertThat(run("remove-user", "ops")).isEqualTo(AddUserCommand.INVALID);
        assertThat(err()).contains("Unknown command remove-user.").contains(AddUserCommand.USAGE, ListUsersCommand.USAGE,
                DisableUserCommand.USAGE, ResetPasswordCommand.USAGE);
        assertThat(out.size()).isZero();
    }

    @Test
    void eachCommandRefusesTheWrongNumberOfArgumentsWithItsUsage() {
        assertThat(run(ListUsersCommand.NAME, "ops")).isEqualTo(UserCommand.INVALID);
        assertThat(run(DisableUserCommand.NAME)).isEqualTo(UserCommand.INVALID);
        assertThat(run(DisableUserCommand.NAME, "ops", "bob")).isEqualTo(UserCommand.INVALID);
        assertThat(run(ResetPasswordCommand.NAME)).isEqualTo(UserCommand.INVALID);
        assertThat(run(ResetPasswordCommand.NAME, "ops", "a new password")).as("never a password in the arguments").isEqualTo(UserCommand.INVALID);
        assertThat(err()).contains(ListUsersCommand.USAGE, DisableUserCommand.USAGE, ResetPasswordCommand.USAGE);
        assertThat(out.size()).isZero();
    }

    @Test
    void aNameNoUserCanHaveIsRefusedBeforeTheUserStoreIsAsked() {
        for (String name : List.of("Ops", "{ops}", "o".repeat(65), "", "al\u0000ice")) {
            assertThat(run(DisableUserCommand.NAME, name)).as(name).isEqualTo(UserCommand.INVALID);
            assertThat(run(ResetPasswordCommand.NAME, name)).as(name).isEqualTo(UserCommand.INVALID);
        }
        assertThat(err()).contains("the name must be 1 to 64 lower-case letters");
        assertThat(out.size()).isZero();
    }

    @Test
    void addUserWithoutItsTwoArgumentsIsRefusedWithTheUsage() {
        assertThat(run(AddUserCommand.NAME, "ops")).isEqualTo(AddUserCommand.INVALID);
        assertThat(run(AddUserCommand.NAME, "ops", "staff", "extra")).isEqualTo(AddUserCommand.INVALID);
        assertThat(err()).contains(AddUserCommand.USAGE);
        assertThat(out.size()).isZero();
    }

    private int run(String... args) {
        return main.command(List.of(args), new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
