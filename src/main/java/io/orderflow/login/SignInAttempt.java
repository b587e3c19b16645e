package io.orderflow.login;

import java.time.Duration;

/**
 * A sign-in whose password is being checked: who, from where, its id among the checks in flight, whether that address had failed for
 * the user already (so that a success there starts the pair afresh), how long the check is put off
 * because the user is being guessed at, and the {@link SignInClearances} stamp taken before Redis was
 * asked.
 */
record SignInAttempt(String user, String address, String id, boolean failedBefore, Duration delay, long clearance) {
}
