package io.orderflow.sandbox;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Tuple;
import jakarta.transaction.Transactional;

/**
 * A payment provider and a warehouse that behave like real ones: each effect happens once per
 * idempotency key (a repeated call answers the first result and adds nothing), calls with the same
 * key are handled one at a time, and latency and failures can be dialled in.
 */
@ApplicationScoped
public class SandboxProviders {

    public enum Kind {
        CHARGE, REFUND, SHIPMENT;

        String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** An answer of the sandbox: status and body. */
    public record Answer(int status, Map<String, Object> body) {
    }

    private final EntityManager db;
    private final SandboxConfig config;

    public SandboxProviders(EntityManager db, SandboxConfig config) {
        this.db = db;
        this.config = config;
    }

    /** Whether this call fails with 503 before anything is done, after the configured delays. */
    public boolean failsNow() {
        pause(config.latency().toMillis());
        if (ThreadLocalRandom.current().nextDouble() < config.slowRate()) {
            pause(config.slowLatency().toMillis());
        }
        return ThreadLocalRandom.current().nextDouble() < config.failureRate();
    }

    /** Does the effect once per key: a repeat answers the first result. Charges ending in .51 are declined. */
    @Transactional
    public Answer perform(Kind kind, String key, UUID orderId, BigDecimal amount, String currency) {
        // Calls with the same key wait for each other, as at a real provider.
        db.createNativeQuery("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))").setParameter("key", kind + ":" + key)
                .getSingleResult();
        Optional<Map<String, Object>> earlier = find(kind, key);
        if (earlier.isPresent()) {
            return new Answer(201, earlier.get());
        }
        if (kind == Kind.CHARGE && amount != null && amount.remainder(BigDecimal.ONE).compareTo(new BigDecimal("0.51")) == 0) {
            return new Answer(402, Map.of("status", "declined", "reason", "insufficient funds"));
        }
        db.createNativeQuery("""
                INSERT INTO sandbox_effects (kind, idempotency_key, order_id, amount, currency, reference, created_at)
                VALUES (:kind, :key, :orderId, :amount, :currency, :reference, :now)""")
                .setParameter("kind", kind.column()).setParameter("key", key).setParameter("orderId", orderId)
                .setParameter("amount", amount).setParameter("currency", currency)
                .setParameter("reference", kind.column() + "_" + UUID.randomUUID().toString().replace("-", ""))
                .setParameter("now", Instant.now())
                .executeUpdate();
        return new Answer(201, find(kind, key).orElseThrow());
    }

    @Transactional
    public Optional<Map<String, Object>> find(Kind kind, String key) {
        List<Tuple> rows = db.createNativeQuery("""
                SELECT reference, idempotency_key, order_id, amount, currency, created_at
                FROM sandbox_effects WHERE kind = :kind AND idempotency_key = :key""", Tuple.class)
                .setParameter("kind", kind.column()).setParameter("key", key).getResultList();
        return rows.stream().findFirst().map(SandboxProviders::effect);
    }

    /** Counts a call that arrived, whatever became of it, with the time it arrived. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void recordCall(Kind kind, String key, UUID orderId, int status, Instant arrived) {
        db.createNativeQuery("INSERT INTO sandbox_calls (kind, idempotency_key, order_id, status, at, answered_at) "
                + "VALUES (:kind, :key, :orderId, :status, :arrived, :now)")
                .setParameter("kind", kind.column()).setParameter("key", key).setParameter("orderId", orderId)
                .setParameter("status", status).setParameter("arrived", arrived).setParameter("now", Instant.now())
                .executeUpdate();
    }

    @Transactional
    public SandboxLedger ledger(UUID orderId) {
        Map<String, List<Map<String, Object>>> effects = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            effects.put(kind.column(), new ArrayList<>());
        }
        List<Tuple> rows = db.createNativeQuery("""
                SELECT kind, reference, idempotency_key, order_id, amount, currency, created_at
                FROM sandbox_effects WHERE order_id = :orderId ORDER BY id""", Tuple.class)
                .setParameter("orderId", orderId).getResultList();
        rows.forEach(row -> effects.get(row.get("kind", String.class)).add(effect(row)));

        Map<String, Long> requests = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            requests.put(kind.column(), 0L);
        }
        List<Tuple> calls = db.createNativeQuery("SELECT kind, count(*) AS calls FROM sandbox_calls WHERE order_id = :orderId GROUP BY kind",
                Tuple.class).setParameter("orderId", orderId).getResultList();
        calls.forEach(call -> requests.put(call.get("kind", String.class), ((Number) call.get("calls")).longValue()));
        return new SandboxLedger(effects.get("charge"), effects.get("refund"), effects.get("shipment"), requests);
    }

    private static Map<String, Object> effect(Tuple row) {
        Map<String, Object> effect = new LinkedHashMap<>();
        effect.put("reference", row.get("reference"));
        effect.put("key", row.get("idempotency_key"));
        effect.put("orderId", row.get("order_id"));
        if (row.get("amount") != null) {
            effect.put("amount", ((BigDecimal) row.get("amount")).stripTrailingZeros().toPlainString());
            effect.put("currency", row.get("currency"));
        }
        effect.put("at", row.get("created_at").toString());
        return effect;
    }

    private static void pause(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
