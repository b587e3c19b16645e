package io.orderflow.user;

/**
 * A user's name, role or password that breaks a rule of the users table: its message says what is wrong, in English, for
 * the operator's commands; the console's page says it in the page's language from its {@link #rule} and {@link #limit}.
 */
public class UserRuleBroken extends IllegalArgumentException {

    /** The rule broken. */
    public enum Rule {
        NAME, ROLE, PASSWORD_TOO_SHORT, PASSWORD_TOO_LONG
    }

    private final Rule rule;
    private final int limit;

    UserRuleBroken(Rule rule, int limit, String message) {
        super(message);
        this.rule = rule;
        this.limit = limit;
    }

    public Rule rule() {
        return rule;
    }

    /** The shortest or longest a password may be (in characters or bytes); 0 for the other rules. */
    public int limit() {
        return limit;
    }
}
