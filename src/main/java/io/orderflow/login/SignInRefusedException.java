package io.orderflow.login;

import java.time.Duration;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/** A sign-in refused, before its password was checked, because its address failed too often for this user recently. */
public class SignInRefusedException extends ProblemException {

    public SignInRefusedException(Duration retryAfter) {
        super(Problem.of(ProblemCode.TOO_MANY_SIGN_IN_FAILURES, "Too many wrong passwords were sent for this user from this address; try again after Retry-After seconds."),
                retryAfter);
    }

    /** Whole seconds until sign-ins are taken again, at least 1. */
    public long retryAfterSeconds() {
        return Math.max(1, (retryAfter().toMillis() + 999) / 1000);
    }
}
