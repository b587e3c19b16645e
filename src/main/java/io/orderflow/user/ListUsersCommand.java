package io.orderflow.user;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

import jakarta.inject.Singleton;

/** {@code list-users}: every user by name, with role, when added and, for a disabled one, since when; never a password hash. */
@Singleton
class ListUsersCommand extends UserCommand {

    public static final String NAME = "list-users";
    public static final String USAGE = "usage: java -jar quarkus-run.jar list-users";
    /** Column widths: a name has at most 64 characters, a role 8, an instant as written here 27. */
    private static final String ROW = "%-64s  %-8s  %-27s  %s%n";

    public ListUsersCommand(UserAccounts accounts) {
        super(NAME, USAGE, 0, accounts);
    }

    @Override
    int runWith(List<String> args, InputStream in, PrintStream out, PrintStream err) {
        out.printf(ROW, "NAME", "ROLE", "ADDED", "DISABLED");
        for (User user : accounts.all()) {
            out.printf(ROW, user.name, user.role, user.createdAt, user.disabledAt == null ? "-" : user.disabledAt);
        }
        return DONE;
    }
}
