package io.orderflow.user;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.orderflow.shared.security.Caller;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.quarkus.panache.common.Sort;

/**
 * The users table: adds, lists and disables users, and sets their passwords, hashed with bcrypt at the configured cost; for
 * the operator's commands and the console's users page.
 */
@ApplicationScoped
public class UserAccounts {

    /** What disabling a user did. */
    public enum Disabling {
        DISABLED, ALREADY_DISABLED, NO_SUCH_USER
    }

    /** A user's sign-ins changed for good (disabled, a new password): whatever was verified for the name no longer holds. */
    record CredentialsChanged(String name) {
    }

    /** The roles a user may have, in the order the console offers them. */
    public static final List<String> ROLES = List.of("customer", Caller.STAFF, Caller.ADMIN, Caller.METRICS);
    /** The same rule as the table's constraint: lower case, no braces (names sit in Redis hash tags). */
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._@-]{0,63}");
    /** bcrypt reads at most 72 bytes of a password and ignores the rest. */
    static final int MAX_PASSWORD_BYTES = 72;
    private static final String REHASH = "UPDATE users SET password = ?1 WHERE name = ?2 AND password = ?3";
    private static final String DISABLE = "UPDATE users SET disabled_at = now() WHERE name = ?1 AND disabled_at IS NULL";
    private static final String SET_PASSWORD = "UPDATE users SET password = ?1 WHERE name = ?2";

    private final EntityManager entityManager;
    private final UserConfig config;
    private final Event<CredentialsChanged> changes;

    public UserAccounts(EntityManager entityManager, UserConfig config, Event<CredentialsChanged> changes) {
        this.entityManager = entityManager;
        this.config = config;
        this.changes = changes;
    }

    /**
     * Adds a user; returns false, changing nothing, when the name is taken.
     *
     * @throws UserRuleBroken naming what is wrong with the name, role or password
     */
    @Transactional
    public boolean add(String name, String role, String password) {
        checkNameAndRole(name, role);
        checkPassword(password);
        return entityManager.createNativeQuery("INSERT INTO users (name, password, role) VALUES (?1, ?2, ?3) ON CONFLICT (name) DO NOTHING")
                .setParameter(1, name)
                .setParameter(2, BcryptUtil.bcryptHash(password, config.bcryptCost()))
                .setParameter(3, role)
                .executeUpdate() == 1;
    }

    /**
     * Gives the user of that name and role this password, hashed at the configured cost, unless its stored
     * hash already matches it; false when nothing changed.
     */
    @Transactional
    public boolean changePassword(String name, String role, String password) {
        User user = User.findById(name);
        if (user == null || !role.equals(user.role) || BcryptUtil.matches(password, user.password)) {
            return false;
        }
        return rehash(name, user.password, password);
    }

    /**
     * Stores a user's password hashed at the configured cost in place of {@code stored}, unless the stored
     * hash changed meanwhile; false when it did.
     */
    @Transactional
    public boolean rehash(String name, String stored, String password) {
        return entityManager.createNativeQuery(REHASH).setParameter(1, BcryptUtil.bcryptHash(password, config.bcryptCost()))
                .setParameter(2, name).setParameter(3, stored).executeUpdate() == 1;
    }

    /** Whether a user of that name exists, disabled or not: to say so before anyone types a password ({@link #add} decides). */
    @Transactional
    public boolean exists(String name) {
        return User.findById(name) != null;
    }

    /** Every user, disabled ones too, by name. */
    @Transactional
    public List<User> all() {
        return User.listAll(Sort.by("name"));
    }

    /**
     * Disables a user for good: no password, session or bearer token of theirs is taken any longer. The user stays,
     * with the orders and tokens under the name, which no one else can take.
     */
    @Transactional
    public Disabling disable(String name) {
        if (entityManager.createNativeQuery(DISABLE).setParameter(1, name).executeUpdate() == 1) {
            changes.fire(new CredentialsChanged(name));
            return Disabling.DISABLED;
        }
        return exists(name) ? Disabling.ALREADY_DISABLED : Disabling.NO_SUCH_USER;
    }

    /**
     * Gives a user a new password, hashed at the configured cost; false when there is no such user. A disabled user
     * stays disabled.
     *
     * @throws UserRuleBroken naming what is wrong with the password
     */
    @Transactional
    public boolean resetPassword(String name, String password) {
        checkPassword(password);
        if (entityManager.createNativeQuery(SET_PASSWORD).setParameter(1, BcryptUtil.bcryptHash(password, config.bcryptCost()))
                .setParameter(2, name).executeUpdate() == 0) {
            return false;
        }
        changes.fire(new CredentialsChanged(name));
        return true;
    }

    /**
     * Checks a new user's name and role, before anyone is asked for a password.
     *
     * @throws UserRuleBroken naming what is wrong
     */
    public void checkNameAndRole(String name, String role) {
        checkName(name);
        if (!ROLES.contains(role)) {
            throw new UserRuleBroken(UserRuleBroken.Rule.ROLE, 0, "the role must be customer, staff, admin or metrics");
        }
    }

    /**
     * Checks a name a user could have, before the user store is asked about it.
     *
     * @throws UserRuleBroken naming what is wrong
     */
    public static void checkName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new UserRuleBroken(UserRuleBroken.Rule.NAME, 0, "the name must be 1 to 64 lower-case letters, digits, '.', '_', '@' or '-',"
                    + " starting with a letter or digit");
        }
    }

    private void checkPassword(String password) {
        if (password.length() < config.minPasswordLength()) {
            throw new UserRuleBroken(UserRuleBroken.Rule.PASSWORD_TOO_SHORT, config.minPasswordLength(),
                    "the password must have at least " + config.minPasswordLength() + " characters");
        }
        if (password.getBytes(StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
            throw new UserRuleBroken(UserRuleBroken.Rule.PASSWORD_TOO_LONG, MAX_PASSWORD_BYTES,
                    "the password must fit in " + MAX_PASSWORD_BYTES + " bytes of UTF-8, all bcrypt reads");
        }
    }
}
