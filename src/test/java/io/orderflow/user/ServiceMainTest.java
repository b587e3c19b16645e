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
    private final ServiceMain main = new ServiceMain(new AddUserCommand(null));
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void anUnknownCommandIsRefusedWithTheUsage() {
        assertThat(run("remove-user", "ops")).isEqualTo(AddUserCommand.INVALID);
        assertThat(err()).contains("Unknown command remove-user.").contains(AddUserCommand.USAGE);
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
