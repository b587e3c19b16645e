package io.orderflow.user;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@code add-user <name> <customer|staff|metrics>}: adds a user, reading the password from the first line of
 * stdin (never from the arguments, which any user of the machine can see in the process list).
 */
@ApplicationScoped
class AddUserCommand {

    public static final String NAME = "add-user";
    public static final String USAGE = "usage: java -jar quarkus-run.jar add-user <name> <customer|staff|metrics>"
            + "  (the password is read from stdin)";
    public static final int ADDED = 0;
    public static final int INVALID = 2;
    public static final int NAME_TAKEN = 3;

    private final UserAccounts accounts;

    public AddUserCommand(UserAccounts accounts) {
        this.accounts = accounts;
    }

    /** Runs the command with its arguments (after {@value #NAME}); returns the process's exit code. */
    public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        if (args.size() != 2) {
            err.println(USAGE);
            return INVALID;
        }
        String name = args.get(0);
        String role = args.get(1);
        try {
            accounts.checkNameAndRole(name, role);
            if (accounts.exists(name)) {
                return nameTaken(name, err);
            }
            String password = readPassword(in, name);
            if (password == null) {
                err.println("User " + name + " not added: no password on stdin.");
                return INVALID;
            }
            if (!accounts.add(name, role, password)) {
                return nameTaken(name, err);
            }
        } catch (IllegalArgumentException e) {
            err.println("User " + name + " not added: " + e.getMessage() + ".");
            return INVALID;
        } catch (IOException e) {
            err.println("User " + name + " not added: cannot read the password from stdin (" + e.getMessage() + ").");
            return INVALID;
        }
        out.println("User " + name + " added with role " + role + ".");
        return ADDED;
    }

    private static int nameTaken(String name, PrintStream err) {
        err.println("User " + name + " already exists; nothing changed.");
        return NAME_TAKEN;
    }

    /** At a terminal the password is asked for without echo; piped in, it is the first line. */
    private static String readPassword(InputStream in, String name) throws IOException {
        if (in == System.in && System.console() != null) {
            char[] typed = System.console().readPassword("Password for %s: ", name);
            return typed == null ? null : new String(typed);
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
    }
}
