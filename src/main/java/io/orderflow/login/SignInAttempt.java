package io.orderflow.login;

/**
 * A sign-in whose password is being checked: who, from where, and how many failures the user had
 * already, so that only a success after failures costs a write.
 */
record SignInAttempt(String user, String address, long userFailures) {
}
