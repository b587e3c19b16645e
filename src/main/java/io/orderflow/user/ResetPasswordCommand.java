package io.orderflow.user;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

import jakarta.inject.Singleton;

/**
 * {@code reset-password <name>}: gives a user a new password, read from stdin as add-user reads one
 * ({@link StdinPassword}), under the same rules; the old one signs in no more. A disabled user stays disabled.
 */
@Singleton
class ResetPasswordCommand extends UserCommand {

    public static final String NAME = "reset-password";
    public static final String USAGE = "usage: java -jar quarkus-run.jar reset-password <name>  (the password is read from stdin)";

    public ResetPasswordCommand(UserAccounts accounts) {
        super(NAME, USAGE, 1, accounts);
    }

    @Override
    int runWith(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        String name = args.get(0);
        try {
            UserAccounts.checkName(name);
            // Asked before anyone types a password for nobody.
            if (!accounts.exists(name)) {
                return noSuchUser(name, err);
            }
            String password = StdinPassword.read(in, name);
            if (password == null) {
                err.println("Password of " + name + " not changed: no password on stdin.");
                return INVALID;
            }
            if (!accounts.resetPassword(name, password)) {
                return noSuchUser(name, err);
            }
        } catch (IllegalArgumentException e) {
            err.println("Password of " + name + " not changed: " + e.getMessage() + ".");
            return INVALID;
        } catch (IOException e) {
            err.println("Password of " + name + " not changed: cannot read the password from stdin (" + e.getMessage() + ").");
            return INVALID;
        }
        out.println("Password of " + name + " changed.");
        return DONE;
    }
}
