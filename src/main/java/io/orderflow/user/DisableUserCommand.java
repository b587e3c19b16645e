package io.orderflow.user;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

import jakarta.inject.Singleton;

/**
 * {@code disable-user <name>}: the user signs in no more, by password, session or bearer token; their sessions end at
 * their next request. Disabling a disabled user changes nothing and succeeds, so that a script may run it again.
 */
@Singleton
class DisableUserCommand extends UserCommand {

    public static final String NAME = "disable-user";
    public static final String USAGE = "usage: java -jar quarkus-run.jar disable-user <name>";

    public DisableUserCommand(UserAccounts accounts) {
        super(NAME, USAGE, 1, accounts);
    }

    @Override
    int runWith(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        String name = args.get(0);
        try {
            UserAccounts.checkName(name);
        } catch (IllegalArgumentException e) {
            err.println("User " + name + " not disabled: " + e.getMessage() + ".");
            return INVALID;
        }
        return switch (accounts.disable(name)) {
            case DISABLED -> {
                out.println("User " + name + " disabled.");
                yield DONE;
            }
            case ALREADY_DISABLED -> {
                out.println("User " + name + " was disabled already; nothing changed.");
                yield DONE;
            }
            case NO_SUCH_USER -> noSuchUser(name, err);
        };
    }
}
