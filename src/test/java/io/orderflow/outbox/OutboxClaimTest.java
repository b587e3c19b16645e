package io.orderflow.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.Test;

import io.orderflow.support.ManualDelivery;
import io.orderflow.support.TestServers;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * A relay's claim takes at most its batch, whatever plan PostgreSQL chooses for it. The plan that once took more is
 * the one for an outbox whose statistics say it holds one row, as they do once it was analyzed while drained: a nested
 * loop that scanned the chosen rows again for each row of the outbox, taking the next ones each time.
 */
@QuarkusTest
@TestProfile(ManualDelivery.class)
@WithTestResource(TestServers.class)
class OutboxClaimTest {

    private static final int DUE = 20;
    // Everything else in the outbox is set aside (in this transaction, which is rolled back) so that ANALYZE sees one row.
    private static final String SET_ASIDE = "DELETE FROM outbox";
    private static final String ONE_DEAD_LETTER = """
            INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, next_attempt_at, created_at)
            VALUES (:kind, gen_random_uuid(), 'claim-test:dead:' || gen_random_uuid(), '{}', 'DEAD', now(), now())""";
    private static final String DUE_MESSAGES = """
            INSERT INTO outbox (kind, order_id, idempotency_key, payload, status, next_attempt_at, created_at)
            SELECT :kind, gen_random_uuid(), 'claim-test:' || gen_random_uuid(), '{}', 'PENDING',
                   now() - interval '1 minute' + n * interval '1 millisecond', now()
            FROM generate_series(1, :count) n""";

    @Inject
    EntityManager db;

    @Inject
    OutboxConfig config;

    @Test
    void aClaimTakesNoMoreThanItsBatchFromAnOutboxAnalyzedWhileNearlyEmpty() {
        int taken;
        QuarkusTransaction.begin();
        try {
            db.createNativeQuery(SET_ASIDE).executeUpdate();
            db.createNativeQuery(ONE_DEAD_LETTER).setParameter("kind", ScriptedHandler.KIND).executeUpdate();
            db.createNativeQuery("ANALYZE outbox").executeUpdate();
            db.createNativeQuery(SET_ASIDE).executeUpdate();
            db.createNativeQuery(DUE_MESSAGES).setParameter("kind", ScriptedHandler.KIND).setParameter("count", DUE).executeUpdate();
            Instant now = Instant.now();
            taken = db.createNativeQuery(OutboxDelivery.TAKE_DUE)
                    .setParameter("kinds", List.of(ScriptedHandler.KIND, "another-kind"))
                    .setParameter("from", now.minus(Duration.ofDays(1)))
                    .setParameter("now", now)
                    .setParameter("batch", config.batchSize())
                    .setParameter("leaseId", UUID.randomUUID())
                    .setParameter("leaseUntil", now.plus(config.lease()))
                    .getResultList().size();
        } finally {
            QuarkusTransaction.rollback();
        }
        // Statistics are written outside the transaction: the outbox's are brought back to what it holds.
        QuarkusTransaction.requiringNew().run(() -> db.createNativeQuery("ANALYZE outbox").executeUpdate());

        assertThat(config.batchSize()).isLessThan(DUE);
        assertThat(taken).isEqualTo(config.batchSize());
    }
}
