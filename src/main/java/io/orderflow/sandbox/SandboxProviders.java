package io.orderflow.sandbox;

import java.math.BigDecimal;
import java.time.Duration;
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
import jakarta.persistence.Query;
import jakarta.persistence.Tuple;
import jakarta.transaction.Transactional;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.openapi.ApiDocument;

/**
 * A payment provider and a warehouse that behave like real ones: each effect happens once per
 * idempotency key (a repeated call answers the first result and adds nothing; a call while the first
 * is still running waits for it a while, then answers 409 "processing"), a declined charge is remembered under its key, a key
 * can be voided so that it can never charge, and latency and failures can be dialled in.
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

    /** What the providers are sent: the order, for money calls an amount, for charges a method, for refunds the charge. */
    public record Call(UUID orderId, @Schema(ref = ApiDocument.AMOUNT_INPUT) BigDecimal amount, String currency,
            List<Map<String, Object>> items, String paymentMethod, String charge, Map<String, String> metadata,
            String returnUrl, Map<String, Object> shippingAddress) {
    }

    /** One page of charges, oldest first, and the cursor of the next page or null. */
    public record ListedCharges(List<Map<String, Object>> items, String next) {
    }

    static final String DEFAULT_METHOD = "pm_card_visa";
    private static final String DECLINED_METHODS = "pm_card_chargeDeclined";
    /** The test-mode method whose charges wait for the customer's authentication (3-D Secure). */
    static final String AUTHENTICATION_METHOD = "pm_card_authenticationRequired";
    /** Where a customer authenticates a charge; the charge's reference, random and unguessable, names it. */
    static final String AUTHENTICATION_PATH = "/sandbox/payments/authenticate/";
    private static final BigDecimal DECLINED_CENTS = new BigDecimal("0.51");
    /** How long past its expected end a processing call is waited for before it counts as abandoned. */
    private static final Duration ABANDONED_AFTER = Duration.ofSeconds(10);
    /** How long a call waits for another with the same key that is still processing. */
    private static final Duration SAME_KEY_WAIT = Duration.ofSeconds(2);
    private static final Duration SAME_KEY_POLL = Duration.ofMillis(20);

    private static final String LOCK_KEY = "SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))";
    private static final String EFFECT_COLUMNS = """
            e.id, e.kind, e.reference, e.idempotency_key, e.order_id, e.amount, e.currency, e.created_at, e.status, e.payment_method,
            e.charge_reference, e.settles_by, e.deployment, e.return_url, CAST(e.shipping_address AS text) AS shipping_address,
            EXISTS (SELECT 1 FROM sandbox_effects r WHERE r.kind = 'refund' AND r.charge_reference = e.reference) AS refunded
            """;
    private static final String FIND = "SELECT " + EFFECT_COLUMNS + " FROM sandbox_effects e WHERE e.kind = :kind AND e.idempotency_key = :key";
    private static final String FIND_BY_REFERENCE = "SELECT " + EFFECT_COLUMNS + " FROM sandbox_effects e WHERE e.kind = 'charge' AND e.reference = :reference";
    private static final String INSERT = """
            INSERT INTO sandbox_effects (kind, idempotency_key, order_id, amount, currency, reference, status, payment_method,
                charge_reference, settles_by, deployment, return_url, shipping_address, created_at)
            VALUES (:kind, :key, :orderId, :amount, :currency, :reference, :status, :method, :charge, :settlesBy, :deployment, :returnUrl,
                CAST(:shippingAddress AS jsonb), :now)""";
    private static final String FINISH = """
            UPDATE sandbox_effects SET status = 'succeeded', created_at = :now
            WHERE kind = :kind AND idempotency_key = :key AND status = 'processing'""";
    // A charge that died while processing is voided: the payment's recovery learns for certain that it never charged.
    private static final String ABANDON_CHARGE = """
            UPDATE sandbox_effects SET status = 'voided'
            WHERE kind = 'charge' AND idempotency_key = :key AND status = 'processing' AND settles_by < :now""";
    // A refund or shipment that died while processing had no effect: its key is free, so a retry does it.
    private static final String FORGET_ABANDONED = """
            DELETE FROM sandbox_effects
            WHERE kind = :kind AND idempotency_key = :key AND status = 'processing' AND settles_by < :now""";
    // Every charge, as a real provider lists them: declined, voided and waiting ones too.
    private static final String LIST_CHARGES = "SELECT " + EFFECT_COLUMNS + """
             FROM sandbox_effects e
            WHERE e.kind = 'charge' AND e.created_at >= :since AND e.created_at < :until AND e.id > :after
            ORDER BY e.id LIMIT :limit""";
    private static final String LEDGER = "SELECT " + EFFECT_COLUMNS + """
             FROM sandbox_effects e WHERE e.order_id = :orderId AND e.status = 'succeeded' ORDER BY e.id""";
    // The customer's answer to the authentication of a charge, once.
    private static final String AUTHENTICATE = """
            UPDATE sandbox_effects SET status = :status, created_at = :now
            WHERE kind = 'charge' AND reference = :reference AND status = 'requires_action'
            RETURNING return_url""";
    private static final String AWAITING_AUTHENTICATION = """
            SELECT 1 FROM sandbox_effects WHERE kind = 'charge' AND reference = :reference AND status = 'requires_action'""";
    private static final String VOID_AUTHENTICATION = """
            UPDATE sandbox_effects SET status = 'voided' WHERE kind = 'charge' AND idempotency_key = :key AND status = 'requires_action'""";
    private static final String RECORD_CALL = """
            INSERT INTO sandbox_calls (kind, idempotency_key, order_id, status, at, answered_at)
            VALUES (:kind, :key, :orderId, :status, :arrived, :now)""";
    private static final String COUNT_CALLS = "SELECT kind, count(*) AS calls FROM sandbox_calls WHERE order_id = :orderId GROUP BY kind";

    private final EntityManager db;
    private final SandboxConfig config;
    private final SandboxEvents events;
    private final ObjectMapper json;

    public SandboxProviders(EntityManager db, SandboxConfig config, SandboxEvents events, ObjectMapper json) {
        this.db = db;
        this.config = config;
        this.events = events;
        this.json = json;
    }

    /**
     * Handles a charge, refund or shipment: 503 for the configured share of calls before anything is
     * done; else the first result under the key, or the effect made now, taking the configured latency
     * while it is processing.
     */
    public Answer perform(Kind kind, String key, Call call) {
        if (ThreadLocalRandom.current().nextDouble() < config.failureRate()) {
            pause(config.latency());
            return new Answer(503, Map.of("status", "unavailable"));
        }
        Duration latency = config.latency();
        if (ThreadLocalRandom.current().nextDouble() < config.slowRate()) {
            latency = latency.plus(config.slowLatency());
        }
        Begun begun = begin(kind, key, call, latency);
        Optional<Answer> decided = begun.answer();
        if (begun.declinedNow()) {
            events.send("charge.failed", find(kind, key).orElseThrow());
        }
        if (decided.isPresent()) {
            return decided.get().status() == 409 ? settledFirst(kind, key).map(first -> answer(first, 201)).orElse(decided.get())
                    : decided.get();
        }
        pause(latency);
        Answer finished = finish(kind, key);
        if (finished.status() == 201 && kind != Kind.SHIPMENT) {
            events.send(kind == Kind.CHARGE ? "charge.succeeded" : "charge.refunded",
                    kind == Kind.CHARGE ? finished.body() : chargeOf((String) finished.body().get("charge")));
        }
        return finished;
    }

    /**
     * Waits a while for the call with the same key that is still processing and returns what it
     * settled on; empty if it takes longer (the caller answers 409, as real providers answer a
     * concurrent request with a key).
     */
    private Optional<Map<String, Object>> settledFirst(Kind kind, String key) {
        long deadline = System.nanoTime() + SAME_KEY_WAIT.toNanos();
        do {
            pause(SAME_KEY_POLL);
            Map<String, Object> first = find(kind, key).orElseThrow();
            if (!"processing".equals(first.get("status"))) {
                return Optional.of(first);
            }
        } while (System.nanoTime() < deadline);
        return Optional.empty();
    }

    /** What a call found or decided at once: an answer unless it starts processing now, and whether it declined now. */
    record Begun(Optional<Answer> answer, boolean declinedNow) {
    }

    /** The first result under the key, or a decline, or an authentication to wait for, or no answer when the call starts processing now. */
    @Transactional
    Begun begin(Kind kind, String key, Call call, Duration latency) {
        lock(kind, key);
        Optional<Map<String, Object>> earlier = current(kind, key);
        if (earlier.isPresent()) {
            return new Begun(Optional.of(answer(earlier.get(), 201)), false);
        }
        String method = kind == Kind.CHARGE ? Optional.ofNullable(call.paymentMethod()).orElse(DEFAULT_METHOD) : null;
        boolean declined = kind == Kind.CHARGE && (method.startsWith(DECLINED_METHODS)
                || (call.amount() != null && call.amount().remainder(BigDecimal.ONE).compareTo(DECLINED_CENTS) == 0));
        boolean authenticates = kind == Kind.CHARGE && !declined && method.equals(AUTHENTICATION_METHOD);
        insert(kind, key, call, method, declined ? "declined" : authenticates ? "requires_action" : "processing",
                authenticates ? null : Instant.now().plus(latency).plus(ABANDONED_AFTER));
        return new Begun(declined || authenticates ? Optional.of(answer(current(kind, key).orElseThrow(), 201)) : Optional.empty(), declined);
    }

    /** Completes a processing call, unless it was given up as abandoned meanwhile. */
    @Transactional
    Answer finish(Kind kind, String key) {
        lock(kind, key);
        db.createNativeQuery(FINISH).setParameter("now", Instant.now()).setParameter("kind", kind.column()).setParameter("key", key)
                .executeUpdate();
        return answer(current(kind, key).orElseThrow(), 201);
    }

    /** The charge with this provider reference, as the provider's lookup shows it. */
    @Transactional
    public Map<String, Object> chargeOf(String reference) {
        @SuppressWarnings("unchecked")
        List<Tuple> rows = db.createNativeQuery(FIND_BY_REFERENCE, Tuple.class).setParameter("reference", reference).getResultList();
        return rows.stream().findFirst().map(this::effect).orElseThrow();
    }

    /** The charge made or decided under a key, as the provider's lookup shows it. */
    @Transactional
    public Optional<Map<String, Object>> find(Kind kind, String key) {
        @SuppressWarnings("unchecked")
        List<Tuple> rows = db.createNativeQuery(FIND, Tuple.class).setParameter("kind", kind.column()).setParameter("key", key)
                .getResultList();
        return rows.stream().findFirst().map(this::effect);
    }

    /**
     * Voids a charge key, as a real provider cancels a payment intent: a key never used can then never
     * charge (a late first call with it is refused with 410). A key already decided answers its result;
     * one still processing answers 409.
     */
    public Answer voidCharge(String key, UUID orderId) {
        Map<String, Object> charge = voidUnlessUsed(key, orderId);
        if ("processing".equals(charge.get("status"))) {
            return settledFirst(Kind.CHARGE, key).map(first -> new Answer(200, first)).orElse(answer(charge, 200));
        }
        return new Answer(200, charge);
    }

    /** The key's record, a new voided one if the key was never used. */
    @Transactional
    Map<String, Object> voidUnlessUsed(String key, UUID orderId) {
        lock(Kind.CHARGE, key);
        if (current(Kind.CHARGE, key).isEmpty()) {
            insert(Kind.CHARGE, key, new Call(orderId, null, null, null, null, null, null, null, null), null, "voided", null);
        }
        // An authentication never completed is cancelled, as a provider cancels a payment intent that waits for its customer.
        db.createNativeQuery(VOID_AUTHENTICATION).setParameter("key", key).executeUpdate();
        return current(Kind.CHARGE, key).orElseThrow();
    }

    /**
     * The customer's answer at the authentication page: the charge waiting for it succeeds, or fails
     * (declined). Returns where the customer goes back to; empty when no charge waits under that reference.
     */
    @Transactional
    public Optional<String> authenticate(String reference, boolean approved) {
        @SuppressWarnings("unchecked")
        List<String> returnTo = db.createNativeQuery(AUTHENTICATE).setParameter("status", approved ? "succeeded" : "declined")
                .setParameter("now", Instant.now()).setParameter("reference", reference).getResultList();
        return returnTo.stream().findFirst().map(url -> url == null ? "/" : url);
    }

    /** Whether a charge waits for its customer's authentication under this reference. */
    @Transactional
    public boolean awaitsAuthentication(String reference) {
        return !db.createNativeQuery(AWAITING_AUTHENTICATION)
                .setParameter("reference", reference).getResultList().isEmpty();
    }

    /** Charges made in [since, until), oldest first, each saying whether it was refunded. */
    @Transactional
    public ListedCharges charges(Instant since, Instant until, long after, int limit) {
        @SuppressWarnings("unchecked")
        List<Tuple> rows = db.createNativeQuery(LIST_CHARGES, Tuple.class).setParameter("since", since).setParameter("until", until)
                .setParameter("after", after).setParameter("limit", limit + 1).getResultList();
        List<Tuple> page = rows.subList(0, Math.min(limit, rows.size()));
        String next = rows.size() > limit ? String.valueOf(((Number) page.get(limit - 1).get("id")).longValue()) : null;
        return new ListedCharges(page.stream().map(this::effect).toList(), next);
    }

    /** Counts a call that arrived, whatever became of it, with the time it arrived. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void recordCall(Kind kind, String key, UUID orderId, int status, Instant arrived) {
        db.createNativeQuery(RECORD_CALL).setParameter("kind", kind.column()).setParameter("key", key).setParameter("orderId", orderId)
                .setParameter("status", status).setParameter("arrived", arrived).setParameter("now", Instant.now())
                .executeUpdate();
    }

    @Transactional
    public SandboxLedger ledger(UUID orderId) {
        Map<String, List<Map<String, Object>>> effects = new LinkedHashMap<>();
        Map<String, Long> requests = new LinkedHashMap<>();
        for (Kind kind : Kind.values()) {
            effects.put(kind.column(), new ArrayList<>());
            requests.put(kind.column(), 0L);
        }
        List<Tuple> rows = db.createNativeQuery(LEDGER, Tuple.class).setParameter("orderId", orderId).getResultList();
        rows.forEach(row -> effects.get(row.get("kind", String.class)).add(effect(row)));
        List<Tuple> calls = db.createNativeQuery(COUNT_CALLS, Tuple.class).setParameter("orderId", orderId).getResultList();
        calls.forEach(call -> requests.put(call.get("kind", String.class), ((Number) call.get("calls")).longValue()));
        return new SandboxLedger(effects.get("charge"), effects.get("refund"), effects.get("shipment"), requests);
    }

    private void lock(Kind kind, String key) {
        // Calls with the same key are decided one at a time, as at a real provider.
        db.createNativeQuery(LOCK_KEY).setParameter("key", kind + ":" + key).getSingleResult();
    }

    /**
     * The record under a key, with a processing call that outlived its time given up as abandoned: a
     * charge voided, a refund or shipment forgotten, as a real provider frees the key of a request that
     * never completed.
     */
    private Optional<Map<String, Object>> current(Kind kind, String key) {
        Query abandon = kind == Kind.CHARGE ? db.createNativeQuery(ABANDON_CHARGE)
                : db.createNativeQuery(FORGET_ABANDONED).setParameter("kind", kind.column());
        abandon.setParameter("now", Instant.now()).setParameter("key", key).executeUpdate();
        return find(kind, key);
    }

    private void insert(Kind kind, String key, Call call, String method, String status, Instant settlesBy) {
        db.createNativeQuery(INSERT).setParameter("kind", kind.column()).setParameter("key", key).setParameter("orderId", call.orderId())
                .setParameter("amount", call.amount()).setParameter("currency", call.currency())
                .setParameter("reference", kind.column() + "_" + UUID.randomUUID().toString().replace("-", ""))
                .setParameter("status", status).setParameter("method", method).setParameter("charge", call.charge())
                .setParameter("settlesBy", settlesBy)
                .setParameter("deployment", call.metadata() == null ? null : call.metadata().get("deployment"))
                .setParameter("returnUrl", call.returnUrl()).setParameter("shippingAddress", written(call.shippingAddress()))
                .setParameter("now", Instant.now())
                .executeUpdate();
    }

    /** The HTTP answer for a record: its result, or 409 while it is processing. */
    private static Answer answer(Map<String, Object> effect, int success) {
        return switch ((String) effect.get("status")) {
            case "succeeded" -> new Answer(success, effect);
            case "requires_action" -> new Answer(success, effect);
            case "declined" -> new Answer(402, Map.of("status", "declined", "key", effect.get("key"), "reason", "card declined"));
            case "voided" -> new Answer(410, Map.of("status", "voided", "key", effect.get("key")));
            default -> new Answer(409, Map.of("status", "processing", "key", effect.get("key")));
        };
    }

    private Map<String, Object> effect(Tuple row) {
        Map<String, Object> effect = new LinkedHashMap<>();
        effect.put("reference", row.get("reference"));
        effect.put("key", row.get("idempotency_key"));
        effect.put("orderId", row.get("order_id"));
        effect.put("status", row.get("status"));
        if (row.get("amount") != null) {
            effect.put("amount", ((BigDecimal) row.get("amount")).stripTrailingZeros().toPlainString());
            effect.put("currency", row.get("currency"));
        }
        if (row.get("payment_method") != null) {
            effect.put("paymentMethod", row.get("payment_method"));
        }
        if (row.get("charge_reference") != null) {
            effect.put("charge", row.get("charge_reference"));
        }
        if ("charge".equals(row.get("kind"))) {
            effect.put("refunded", row.get("refunded"));
        }
        if (row.get("deployment") != null) {
            effect.put("metadata", Map.of("deployment", row.get("deployment")));
        }
        if (row.get("shipping_address") != null) {
            effect.put("shippingAddress", read((String) row.get("shipping_address")));
        }
        if ("requires_action".equals(row.get("status"))) {
            effect.put("nextAction", Map.of("type", "redirect", "url", AUTHENTICATION_PATH + row.get("reference")));
        }
        effect.put("at", row.get("created_at").toString());
        return effect;
    }

    /** A shipment's address as the warehouse keeps it: the JSON object it was sent, whatever its members. */
    private String written(Map<String, Object> address) {
        try {
            return address == null ? null : json.writeValueAsString(address);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A posted address is JSON already", e);
        }
    }

    private Map<String, Object> read(String address) {
        try {
            return json.readValue(address, new TypeReference<Map<String, Object>>() {
            });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A stored address is JSON", e);
        }
    }

    private static void pause(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
