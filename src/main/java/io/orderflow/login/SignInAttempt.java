package io.orderflow.login;

import java.time.Duration;

/**
 * A sign-in whose password is being checked: who, from where, whether that address had failed for
 * the user already (so that only a success after failures costs a write), how long the check is put
 * off because the user is being guessed at, and the {@link SignInClearances} stamp taken before Redis
 * was asked ({@link SignInClearances#UNCHECKED} when Redis did not answer).
 */
record SignInAttempt(String user, String address, boolean failedBefore, Duration delay, long clearance) {

    /** Redis did not answer: the attempt goes on unthrottled, and its success clears nothing. */
    static SignInAttempt unchecked(String user, String address) {
        return new SignInAttempt(user, address, false, Duration.ZERO, SignInClearances.UNCHECKED);
    }
}
