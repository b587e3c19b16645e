package io.orderflow.user;

import java.time.Duration;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/** A sign-in whose password could not be checked because the user store did not answer: 503, never a wrong password. */
public class UserStoreUnavailableException extends ProblemException {

    public UserStoreUnavailableException() {
        super(Problem.of(ProblemCode.SERVICE_UNAVAILABLE, "The user store is not answering, so the password could not be checked; try again shortly."),
                Duration.ofSeconds(1));
    }
}
