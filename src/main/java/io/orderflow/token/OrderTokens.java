package io.orderflow.token;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.orderflow.shared.Hashing;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.redis.ClaimAlongside;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.redis.RedisScript;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * One-time order tokens, kept in Redis under the customer's hash tag. Only a token's SHA-256 is
 * stored anywhere; a token is looked up under the caller's own tag, so another customer's token
 * is simply unknown to a caller and is never touched by their attempt. Each step is a span of its own
 * (orders.token.*), named for the script it runs, above the Redis call.
 */
@Startup
@ApplicationScoped
public class OrderTokens {

    private static final RedisScript ISSUE = RedisScript.load("token-issue");
    private static final RedisScript CLAIM = RedisScript.load("token-claim", "claim-token");
    private static final RedisScript CLAIM_WITH_KEY = RedisScript.load("token-claim-with-key", "claim-key", "claim-token");
    private static final RedisScript COMPLETE = RedisScript.load("token-complete");
    private static final RedisScript RELEASE = RedisScript.load("token-release");
    private static final Duration POLL_INTERVAL = Duration.ofMillis(20);

    private final SecureRandom random = new SecureRandom();
    private final RedisDataSource redis;
    private final ReactiveRedisDataSource reactive;
    private final RedisKeys keys;
    private final TokenConfig config;
    private final Counter issued;
    private final Counter consumed;
    private final Counters<TokenRejection> rejected;

    public OrderTokens(RedisDataSource redis, ReactiveRedisDataSource reactive, RedisKeys keys, TokenConfig config, MeterRegistry metrics) {
        this.redis = redis;
        this.reactive = reactive;
        this.keys = keys;
        this.config = config;
        this.issued = Counters.single(metrics, "orders.tokens.issued", "Order tokens issued");
        this.consumed = Counters.single(metrics, "orders.tokens.consumed", "Order tokens used for an order");
        this.rejected = Counters.of(metrics, "orders.tokens.rejected", "Order tokens refused, by why", Tags.empty(), "reason", TokenRejection.class);
    }

    /** Issues a token, without blocking: the API issues them on the event loop. */
    @WithSpan("orders.token.issue")
    public Uni<IssuedToken> issue(String customer) {
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        String hash = hash(token);
        return ISSUE.run(reactive, List.of(outstandingKey(customer), tokenKey(customer, hash)), hash, config.ttl().toMillis(), config.maxOutstanding())
                .map(answer -> {
                    if ("capped".equals(answer.get(0).toString())) {
                        rejected.increment(TokenRejection.TOO_MANY_OUTSTANDING);
                        throw new ProblemException(Problem.of(ProblemCode.TOO_MANY_TOKENS,
                                "You hold " + config.maxOutstanding() + " unused order tokens; use one or wait until one expires."),
                                Duration.ofMillis(answer.get(1).toLong()));
                    }
                    issued.increment();
                    return new IssuedToken(token, Instant.ofEpochMilli(answer.get(1).toLong()), config.ttl().toSeconds());
                });
    }

    /**
     * Whether this customer's token is still unused with at least half its lifetime ahead: one a page may
     * offer again instead of issuing another (the checkout keeps its form's token for its browser).
     */
    public boolean isFreshAndUnused(String customer, String token) {
        Map<String, String> record = redis.hash(String.class).hmget(tokenKey(customer, hash(token)), "state", "expiresAt");
        String expiresAt = record.get("expiresAt");
        return "issued".equals(record.get("state")) && expiresAt != null
                && Long.parseLong(expiresAt) - System.currentTimeMillis() > config.ttl().toMillis() / 2;
    }

    /**
     * Consumes a token for a request, atomically. While another request holds the token this waits
     * for it, up to {@code orders.tokens.in-flight-wait}, then answers 409 {@code order-token-in-use}.
     * The request's Idempotency-Key, when it has one to claim, is claimed first in the same round trip.
     */
    @WithSpan("orders.token.claim")
    public TokenClaim claim(String customer, String token, String fingerprint, Optional<ClaimAlongside> key) {
        String hash = hash(token);
        String claimId = UUID.randomUUID().toString();
        if (key.isPresent()) {
            return claimedWithKey(customer, hash, fingerprint, claimId, key.get()).await().indefinitely().get();
        }
        return waitFor(claimOnce(customer, hash, fingerprint, claimId), customer, hash, fingerprint, claimId);
    }

    /**
     * Claims the request's Idempotency-Key, then the token, in one script call, without blocking. What the key's claim
     * found may need PostgreSQL (a key taken over), and the token may be in use: both are left to the step this
     * answers, which blocks, for a worker thread to take.
     */
    @WithSpan("orders.token.claim")
    public Uni<Supplier<TokenClaim>> claimWithKey(String customer, String token, String fingerprint, ClaimAlongside key) {
        return claimedWithKey(customer, hash(token), fingerprint, UUID.randomUUID().toString(), key);
    }

    private Uni<Supplier<TokenClaim>> claimedWithKey(String customer, String hash, String fingerprint, String claimId, ClaimAlongside key) {
        List<Object> arguments = new ArrayList<>(List.of(fingerprint, claimId, config.lease().toMillis()));
        arguments.addAll(key.arguments());
        return CLAIM_WITH_KEY.run(reactive, List.of(tokenKey(customer, hash), key.record()), arguments.toArray()).map(both -> () -> {
            key.found(both.get(0));
            // The token's answer, when the key was claimed afresh; none when the key was held otherwise (taken over).
            Response first = both.size() > 1 ? both.get(1) : claimOnce(customer, hash, fingerprint, claimId);
            return waitFor(first, customer, hash, fingerprint, claimId);
        });
    }

    /**
     * One attempt at consuming a token, without blocking, for a request with no Idempotency-Key to claim alongside:
     * a repeat is answered on the event loop. {@code IN_USE} while another request holds the token: {@link #awaitClaim}
     * then waits for it.
     */
    @WithSpan("orders.token.claim")
    public Uni<TokenClaim> tryClaim(String customer, String token, String fingerprint) {
        String hash = hash(token);
        String claimId = UUID.randomUUID().toString();
        return CLAIM.run(reactive, List.of(tokenKey(customer, hash)), fingerprint, claimId, config.lease().toMillis())
                .map(answer -> {
                    TokenClaim claim = outcome(answer, customer, hash, fingerprint, claimId);
                    return claim != null ? claim : new TokenClaim(TokenClaim.Outcome.IN_USE, customer, hash, claimId, null, fingerprint, null);
                });
    }

    /** Waits, blocking, for a token {@link #tryClaim} found in use, as {@link #claim} does: it asks again after a pause. */
    @WithSpan("orders.token.claim")
    public TokenClaim awaitClaim(TokenClaim inUse) {
        String customer = inUse.customer();
        String hash = inUse.tokenHash();
        pause();
        return waitFor(claimOnce(customer, hash, inUse.fingerprint(), inUse.claimId()), customer, hash, inUse.fingerprint(), inUse.claimId());
    }

    private TokenClaim waitFor(Response first, String customer, String hash, String fingerprint, String claimId) {
        long deadline = System.nanoTime() + config.inFlightWait().toNanos();
        Response answer = first;
        while (true) {
            TokenClaim claim = outcome(answer, customer, hash, fingerprint, claimId);
            if (claim != null) {
                return claim;
            }
            if (System.nanoTime() >= deadline) {
                rejected.increment(TokenRejection.IN_USE);
                throw new ProblemException(Problem.of(ProblemCode.ORDER_TOKEN_IN_USE, "Another request is creating an order with this token; retry shortly to get its result."),
                        Duration.ofMillis(Math.min(answer.get(1).toLong(), 1000)));
            }
            pause();
            answer = claimOnce(customer, hash, fingerprint, claimId);
        }
    }

    private Response claimOnce(String customer, String hash, String fingerprint, String claimId) {
        return CLAIM.run(redis, List.of(tokenKey(customer, hash)), fingerprint, claimId, config.lease().toMillis());
    }

    /** What a claim script's answer says; null while another request holds the token. */
    private static TokenClaim outcome(Response answer, String customer, String hash, String fingerprint, String claimId) {
        return switch (answer.get(0).toString()) {
            case "claimed" -> new TokenClaim(TokenClaim.Outcome.CLAIMED, customer, hash, claimId, null, fingerprint, null);
            case "consumed" -> new TokenClaim(TokenClaim.Outcome.CONSUMED, customer, hash, null,
                    UUID.fromString(answer.get(1).toString()), answer.get(2).toString(), answer.size() > 3 ? answer.get(3).toString() : null);
            case "unknown" -> new TokenClaim(TokenClaim.Outcome.UNKNOWN, customer, hash, null, null, null, null);
            default -> null; // in-use
        };
    }

    /** Marks a claimed token as used by an order; a retry of the same request will be answered with {@code answer} (JSON). */
    @WithSpan("orders.token.complete")
    public void complete(TokenClaim claim, UUID orderId, String orderFingerprint, String answer) {
        COMPLETE.run(redis, List.of(tokenKey(claim.customer(), claim.tokenHash()), outstandingKey(claim.customer())),
                claim.claimId(), orderId, orderFingerprint, config.ttl().toMillis(), claim.tokenHash(), answer);
        consumed.increment();
    }

    /** Counts a token refused by the order it was sent with. */
    public void countRejected(TokenRejection reason) {
        rejected.increment(reason);
    }

    /** Gives a claimed token back after its request failed before an order existed. */
    @WithSpan("orders.token.release")
    public void release(TokenClaim claim) {
        RELEASE.run(redis, List.of(tokenKey(claim.customer(), claim.tokenHash())), claim.claimId());
    }

    public static String hash(String token) {
        return Hashing.sha256Hex(token);
    }

    public String tokenKey(String customer, String tokenHash) {
        return keys.ofPrincipal(customer, "token:" + tokenHash);
    }

    private String outstandingKey(String customer) {
        return keys.ofPrincipal(customer, "tokens-outstanding");
    }

    private static void pause() {
        try {
            Thread.sleep(POLL_INTERVAL.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for an order token", e);
        }
    }
}
