package io.orderflow.user;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

import jakarta.inject.Singleton;

/** {@code add-user <name> <customer|staff|admin|metrics>}: adds a user, with a password read from stdin ({@link StdinPassword}). */
@Singleton
class AddUserCommand extends UserCommand {

    public static final String NAME = "add-user";
    public static final String USAGE = "usage: java -jar quarkus-run.jar add-user <name> <customer|staff|admin|metrics>"
            + "  (the password is read from stdin)";
    public static final int ADDED = DONE;

    public AddUserCommand(UserAccounts accounts) {
        super(NAME, USAGE, 2, accounts);
    }

    @Override
    int runWith(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        String name = args.get(0);
        String role = args.get(1);
        try {
            accounts.checkNameAndRole(name, role);
            if (accounts.exists(name)) {
                return nameTaken(name, err);
            }
            String password = StdinPassword.read(in, name);
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
}
