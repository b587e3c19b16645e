package io.orderflow.shared.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.concurrent.CompletionException;

import javax.transaction.xa.XAException;

import jakarta.transaction.RollbackException;
import jakarta.ws.rs.core.Response;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.redis.client.impl.types.ErrorType;

import io.orderflow.support.FastTest;

/** A Redis connection lost under a request is a backing service failing: 503 with Retry-After, never a 500. */
@FastTest
class BackingServiceFailureTest {

    private final ProblemMappers mappers = new ProblemMappers(new ObjectMapper(), "/login", "/login?error=true", "quarkus-redirect-location", new MemorySize(BigInteger.valueOf(1024 * 1024)));

    @Test
    void aCommandInFlightWhenRedisWentAwayIs503() {
        assertUnavailable(new CompletionException(ErrorType.create("CONNECTION_CLOSED")));
    }

    @Test
    void aCommandOnAClosedConnectionIs503() {
        assertUnavailable(new CompletionException(new NoStackTraceThrowable("Connection is closed")));
    }

    @Test
    void aConnectionResetUnderACommandIs503() {
        // What a command in flight gets when Redis is shut down under it (found by the proof under faults)
        assertUnavailable(new CompletionException(new java.net.SocketException("Connection reset")));
    }

    @Test
    void aRedisCallThatOutlivedItsTimeoutIs503() {
        // What a command gets while Redis is paused past quarkus.redis.timeout (found by the proof under faults)
        assertUnavailable(new io.smallrye.mutiny.TimeoutException());
    }

    @Test
    void aCommitTheDatabaseDroppedIs503() {
        // What a transaction's commit fails with when PostgreSQL is shut down under it (found by the proof under faults):
        // the database's error is no cause, only suppressed.
        XAException commit = new XAException("Error trying to transactionCommit local transaction");
        commit.initCause(new SQLException("FATAL: terminating connection due to administrator command", "57P01"));
        RollbackException rollback = new RollbackException("ARJUNA016053: Could not commit transaction.");
        rollback.addSuppressed(commit);
        assertUnavailable(new IllegalStateException(rollback));
    }

    @Test
    void aRollbackOfOurOwnIsStillAFailureOfOurOwn() {
        RollbackException rollback = new RollbackException("ARJUNA016053: Could not commit transaction.");
        rollback.addSuppressed(new IllegalArgumentException("a bug"));
        assertThat(mappers.unexpected(new IllegalStateException(rollback)).getStatus()).isEqualTo(500);
    }

    @Test
    void aRedisErrorReplyIsStillAFailureOfOurOwn() {
        Response answer = mappers.unexpected(new CompletionException(ErrorType.create("ERR wrong number of arguments")));
        assertThat(answer.getStatus()).isEqualTo(500);
    }

    private void assertUnavailable(Throwable failure) {
        Response answer = mappers.unexpected(failure);
        assertThat(answer.getStatus()).isEqualTo(503);
        assertThat(answer.getHeaderString("Retry-After")).isEqualTo("1");
        assertThat(new String((byte[]) answer.getEntity(), StandardCharsets.UTF_8)).contains("\"code\":\"service-unavailable\"")
                .doesNotContain("Exception").doesNotContain("CONNECTION_CLOSED");
    }
}
