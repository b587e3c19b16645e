package io.orderflow.idempotency;

import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.Transactional;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.core.Response;

import org.hibernate.Session;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.arc.Arc;

/**
 * Idempotency-Keys with their final answers in PostgreSQL, for the whole retention, whatever Redis
 * forgets. A request whose effect is written to PostgreSQL keeps its answer in the effect's own
 * transaction ({@link #keepWithEffect}), so the effect and its key commit or roll back together; any
 * other final answer is kept right after it was given. Only the request holding a key, or one after the
 * row's retention, may write its row.
 */
@ApplicationScoped
public class IdempotencyRecords {

    /** An answer PostgreSQL keeps for a key: for the request with this fingerprint, until then. */
    record Kept(String fingerprint, StoredAnswer answer, Instant until) {

        Duration left(Instant now) {
            return Duration.between(now, until);
        }
    }

    // Whether an answer is kept, then the answer: a new key (the common case) costs one round trip. pgjdbc sends a
    // prepared statement whose rows have no bounded size after a round trip of its own, which the look's one
    // timestamp column does not need; only a key that Redis forgot and PostgreSQL kept pays for the answer's read.
    private static final String IS_KEPT = "SELECT kept_until FROM idempotency_keys WHERE scope_hash = :scope AND kept_until > :now";
    private static final String FIND = """
            SELECT fingerprint, status, headers, body, kept_until FROM idempotency_keys WHERE scope_hash = :scope AND kept_until > :now""";
    // A row past its retention, or written by this holder, is taken over as if it were not there.
    private static final String KEEP = """
            INSERT INTO idempotency_keys (scope_hash, principal, method, path, idempotency_key, fingerprint, claim_id, status, headers,
                body, created_at, kept_until)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (scope_hash) DO UPDATE SET fingerprint = excluded.fingerprint, claim_id = excluded.claim_id,
                status = excluded.status, headers = excluded.headers, body = excluded.body, created_at = excluded.created_at,
                kept_until = excluded.kept_until
            WHERE idempotency_keys.kept_until <= excluded.created_at OR idempotency_keys.claim_id = excluded.claim_id""";

    private final EntityManager db;
    private final IdempotencyConfig config;
    private final HeldKey held;
    private final TransactionSynchronizationRegistry transactions;
    private final ObjectMapper json;
    private final AnswerSeal seal;

    public IdempotencyRecords(EntityManager db, IdempotencyConfig config, HeldKey held, TransactionSynchronizationRegistry transactions,
            ObjectMapper json, AnswerSeal seal) {
        this.db = db;
        this.config = config;
        this.held = held;
        this.transactions = transactions;
        this.json = json;
        this.seal = seal;
    }

    /**
     * Last in the transaction that writes the effect of the current request: keeps {@code answer}, the
     * response the request will give, as its Idempotency-Key's answer. Nothing when the request holds
     * no key (or is no request: a job).
     *
     * @throws KeyAlreadyKeptException when an answer is kept for the key (by a request Redis has forgotten,
     *         or one beside this one): the effect must not commit, the caller is answered with that answer
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void keepWithEffect(Response answer) {
        KeyClaim claim = heldClaim();
        if (claim == null) {
            return;
        }
        StoredAnswer stored = StoredAnswer.of(answer, json);
        Instant until = keptUntil();
        if (!write(claim, stored, until)) {
            throw new KeyAlreadyKeptException();
        }
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    held.keptWithThisEffect(new Kept(claim.fingerprint().value(), stored, until));
                }
            }
        });
    }

    /** The key the current request holds; null outside a request (a job) or without a key. */
    private KeyClaim heldClaim() {
        return Arc.container().requestContext().isActive() ? held.claim() : null;
    }

    /**
     * The answer kept for a key, while it is kept. One statement needs no transaction of its own: outside
     * one it runs alone, without a commit's round trip.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    Optional<Kept> find(KeyScope scope) {
        Instant now = Instant.now();
        if (db.unwrap(Session.class).createNativeQuery(IS_KEPT, Instant.class).addScalar("kept_until", Instant.class)
                .setParameter("scope", scope.hash()).setParameter("now", now).getResultList().isEmpty()) {
            return Optional.empty();
        }
        // Typed up front: left to itself, Hibernate works out each column's type from the result set's metadata on every run.
        List<Object[]> rows = db.unwrap(Session.class).createNativeQuery(FIND, Object[].class).addScalar("fingerprint", String.class)
                .addScalar("status", Integer.class).addScalar("headers", String.class).addScalar("body", String.class)
                .addScalar("kept_until", Instant.class).setParameter("scope", scope.hash()).setParameter("now", now)
                .getResultList();
        return rows.stream().findFirst().map(row -> new Kept((String) row[0], StoredAnswer.read((Integer) row[1], (String) row[2],
                (String) row[3], json, seal), (Instant) row[4]));
    }

    /** Keeps a final answer given without an effect in PostgreSQL; empty when another request's answer is kept for the key. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    Optional<Kept> keep(KeyClaim claim, StoredAnswer answer) {
        Instant until = keptUntil();
        return write(claim, answer, until) ? Optional.of(new Kept(claim.fingerprint().value(), answer, until)) : Optional.empty();
    }

    /**
     * Over the transaction's own connection with JDBC: the statement runs with every keyed request that
     * has an effect, and Hibernate's native queries parse it and bind its parameters anew each time.
     */
    private boolean write(KeyClaim claim, StoredAnswer answer, Instant until) {
        KeyScope scope = claim.scope();
        String headers = answer.headersJson(json);
        String body = answer.keptBody(seal);
        return db.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement keep = connection.prepareStatement(KEEP)) {
                keep.setBytes(1, scope.hash());
                keep.setString(2, scope.principal());
                keep.setString(3, scope.method());
                keep.setString(4, scope.path());
                keep.setString(5, scope.key());
                keep.setString(6, claim.fingerprint().value());
                keep.setObject(7, UUID.fromString(claim.claimId()));
                keep.setInt(8, answer.status());
                keep.setString(9, headers);
                keep.setString(10, body);
                keep.setObject(11, OffsetDateTime.now(ZoneOffset.UTC));
                keep.setObject(12, until.atOffset(ZoneOffset.UTC));
                return keep.executeUpdate() == 1;
            }
        });
    }

    private Instant keptUntil() {
        return Instant.now().plus(config.retention()).truncatedTo(ChronoUnit.MICROS);
    }
}
