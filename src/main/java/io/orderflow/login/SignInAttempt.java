package io.orderflow.login;

import java.time.Duration;

/**
 * A sign-in whose password is being checked: who, from where, whether that address had failed for
 * the user already (so that only a success after failures costs a write), and how long the check is
 * put off because the user is being guessed at.
 */
record SignInAttempt(String user, String address, boolean failedBefore, Duration delay) {
}
