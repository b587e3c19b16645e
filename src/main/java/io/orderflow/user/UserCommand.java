package io.orderflow.user;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * A command of the packaged app for the operator ({@code java -jar quarkus-run.jar <command> ...}), which
 * {@link ServiceMain} runs against the configured database instead of serving. Its exit code tells a script
 * what happened.
 */
abstract class UserCommand {

    static final int DONE = 0;
    /** Bad usage, name, role or password: nothing changed. */
    static final int INVALID = 2;
    static final int NAME_TAKEN = 3;
    static final int NO_SUCH_USER = 4;

    final UserAccounts accounts;
    private final String name;
    private final String usage;
    private final int arguments;

    /** A command of this name and usage line, which takes this many arguments. */
    UserCommand(String name, String usage, int arguments, UserAccounts accounts) {
        this.name = name;
        this.usage = usage;
        this.arguments = arguments;
        this.accounts = accounts;
    }

    /** What the operator types: {@code add-user}. */
    final String name() {
        return name;
    }

    final String usage() {
        return usage;
    }

    /** Runs the command with its arguments (after its name); returns the process's exit code. */
    final int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        if (args.size() != arguments) {
            err.println(usage);
            return INVALID;
        }
        return runWith(args, in, out, err);
    }

    /** Runs the command with as many arguments as it takes. */
    abstract int runWith(List<String> args, InputStream in, PrintStream out, PrintStream err);

    static int noSuchUser(String name, PrintStream err) {
        err.println("There is no user " + name + "; nothing changed.");
        return NO_SUCH_USER;
    }
}
