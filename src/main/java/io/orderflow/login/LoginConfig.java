package io.orderflow.login;

import java.time.Duration;

import jakarta.validation.constraints.Min;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Sign-in throttling. Wrong passwords count per (user, client address), per address and per user; an
 * address that guesses is refused, and a user guessed at from everywhere is only slowed down, so that
 * no stranger can lock a user out.
 */
@ConfigMapping(prefix = "orders.login")
public interface LoginConfig {

    /**
     * Wrong passwords for one user from one client address within a window before that address is
     * refused (429) for that user, even its right password; other addresses are not affected.
     */
    @WithDefault("5")
    @Min(1)
    int maxFailuresPerUserAndAddress();

    /**
     * Wrong passwords from one client address, for any users, within a window before that address is
     * refused for every user it has failed for, and its checks for other names are bounded in rate. Users
     * it has not failed for still sign in from it: many people may sit behind one address (an office, a
     * carrier's NAT, a proxy that does not forward).
     */
    @WithDefault("50")
    @Min(1)
    int maxFailuresPerAddress();

    /**
     * Password checks per second an address past {@link #maxFailuresPerAddress()} still gets for names it
     * has not failed for (beyond them, 429 with Retry-After 1): one password sprayed over many names is
     * bounded, while a right password from a shared address still gets through within a second or two.
     */
    @WithDefault("2")
    @Min(1)
    int checksPerSecondPastAddressLimit();

    /**
     * Wrong passwords for one user, from any addresses, within a window before its password checks are
     * delayed: by 100 ms, doubled with each further failure, up to {@link #maxDelay()}. Slowed, never
     * refused: refusing would hand a lockout to anyone who knows the name.
     */
    @WithDefault("5")
    @Min(1)
    int slowDownAfter();

    /** The longest delay a user's password check is put off by. */
    @WithDefault("1S")
    Duration maxDelay();

    /**
     * How long a sign-in waits when the password checks in flight from its address alone fill a limit
     * (a burst of one user's right password, many people behind one address signing in at once): it
     * asks again as they end, and only after this is it refused with 429 and Retry-After 1.
     */
    @WithDefault("5S")
    Duration waitForChecksInFlight();

    /** Starts at a counter's first failure; the counter is forgotten when it ends. */
    @WithDefault("15M")
    Duration window();
}
