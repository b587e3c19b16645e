package io.orderflow.shared.security;

/**
 * The order in which the providers of a user name and password run (highest first): a password
 * verified lately from an address cleared of failures is taken without asking Redis, then throttling
 * refuses before anything is checked, then a name no user can have is refused, then a password
 * verified lately is taken without its hash, then a user being guessed at is slowed down, and last
 * the user store checks the password (ahead of quarkus-security-jpa's own provider, which it
 * replaces for passwords).
 */
public final class SignInOrder {

    public static final int KNOWN = Integer.MAX_VALUE;
    public static final int THROTTLE = KNOWN - 1;
    public static final int NAME_CHECK = THROTTLE - 1;
    public static final int VERIFIED_PASSWORDS = NAME_CHECK - 1;
    public static final int SLOW_DOWN = VERIFIED_PASSWORDS - 1;
    public static final int USER_STORE = SLOW_DOWN - 1;

    private SignInOrder() {
    }
}
