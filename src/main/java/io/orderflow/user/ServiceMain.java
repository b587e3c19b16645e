package io.orderflow.user;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.quarkus.arc.All;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * The packaged app's entry point. Without arguments it serves as it always has; with a command
 * ({@link UserCommand}: add-user, list-users, disable-user, reset-password) it runs that command against the
 * configured database and exits, without opening the HTTP port or running the scheduled jobs.
 */
@QuarkusMain
public class ServiceMain implements QuarkusApplication {

    /**
     * Read when Quarkus starts, so they are set before it does, and only for a command's run. A command serves no
     * one, so the shutdown delay (quarkus.shutdown.delay, time for load balancers to stop sending requests) would only
     * keep the operator waiting after the answer.
     */
    private static final Map<String, String> COMMAND_MODE = Map.of(
            "quarkus.http.host-enabled", "false",
            "quarkus.scheduler.enabled", "false",
            "quarkus.shutdown.delay", "0S");

    private final List<UserCommand> commands;

    public ServiceMain(@All List<UserCommand> commands) {
        this.commands = commands;
    }

    public static void main(String... args) {
        if (args.length == 0) {
            Quarkus.run(args);
            return;
        }
        COMMAND_MODE.forEach(System::setProperty);
        try {
            Quarkus.run(ServiceMain.class, args);
        } finally {
            COMMAND_MODE.keySet().forEach(System::clearProperty);
        }
    }

    @Override
    public int run(String... args) {
        if (args.length == 0) {
            // Dev mode starts the application itself rather than through main: serve until stopped.
            Quarkus.waitForExit();
            return 0;
        }
        return command(Arrays.asList(args), System.in, System.out, System.err);
    }

    /** Runs the command the first argument names with the rest; returns the process's exit code. */
    int command(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        for (UserCommand command : commands) {
            if (command.name().equals(args.get(0))) {
                return command.run(args.subList(1, args.size()), in, out, err);
            }
        }
        err.println("Unknown command " + args.get(0) + ". The commands:");
        err.println(commands.stream().map(UserCommand::usage).sorted().collect(Collectors.joining(System.lineSeparator())));
        return UserCommand.INVALID;
    }
}
