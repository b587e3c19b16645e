package io.orderflow.shared.problem;

import java.time.Duration;

/**
 * Ends a request with a problem answer. Thrown by the services for every answer of the contract
 * that is not a success; carries no stack trace since it is an expected outcome.
 */
public class ProblemException extends RuntimeException {

    private final Problem problem;
    private final Duration retryAfter;

    public ProblemException(Problem problem) {
        this(problem, null);
    }

    public ProblemException(Problem problem, Duration retryAfter) {
        super(problem.code() + ": " + problem.detail(), null, false, false);
        this.problem = problem;
        this.retryAfter = retryAfter;
    }

    public Problem problem() {
        return problem;
    }

    /** When the client may try again, for 409 in-use, 429 and 503 answers; null otherwise. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
