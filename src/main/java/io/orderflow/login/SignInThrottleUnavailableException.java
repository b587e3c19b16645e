package io.orderflow.login;

import java.time.Duration;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/** A sign-in not checked because the throttle's counts in Redis could not be read: 503, never an unthrottled check. */
public class SignInThrottleUnavailableException extends ProblemException {

    public SignInThrottleUnavailableException() {
        super(Problem.of(ProblemCode.SERVICE_UNAVAILABLE, "Sign-ins cannot be checked right now; try again shortly."), Duration.ofSeconds(1));
    }
}
