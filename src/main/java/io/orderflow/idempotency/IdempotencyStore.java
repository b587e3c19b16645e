package io.orderflow.idempotency;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.json.Fingerprint;
import io.orderflow.shared.redis.ClaimAlongside;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.redis.RedisScript;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Idempotency-Key records in Redis, one per (principal, method, path, key): claimed atomically with
 * a lease, completed with the final answer, or released. Only the claim's holder may complete or
 * release it, so a slow holder whose lease ran out cannot overwrite its successor's answer.
 */
@ApplicationScoped
class IdempotencyStore {

    private static final RedisScript CLAIM = RedisScript.load("idempotency-claim", "claim-key");
    private static final RedisScript COMPLETE = RedisScript.load("idempotency-complete");
    private static final RedisScript RELEASE = RedisScript.load("idempotency-release");

    private final RedisDataSource redis;
    private final ReactiveRedisDataSource reactive;
    private final RedisKeys keys;
    private final IdempotencyConfig config;
    private final ObjectMapper json;
    private final AnswerSeal seal;

    public IdempotencyStore(RedisDataSource redis, ReactiveRedisDataSource reactive, RedisKeys keys, IdempotencyConfig config,
            ObjectMapper json, AnswerSeal seal) {
        this.redis = redis;
        this.reactive = reactive;
        this.keys = keys;
        this.config = config;
        this.json = json;
        this.seal = seal;
    }

    public KeyClaim claim(KeyScope scope, Fingerprint fingerprint) {
        String recordKey = recordKey(scope);
        String claimId = UUID.randomUUID().toString();
        Response answer = CLAIM.run(redis, List.of(recordKey), fingerprint.value(), claimId, config.lease().toMillis(),
                config.retention().toMillis());
        if (isVersion1Mismatch(answer, fingerprint)) {
            // Kept before the upgrade, for this very request: claimed again accepting either form, as the record may have changed since.
            answer = CLAIM.run(redis, List.of(recordKey), fingerprint.value(), claimId, config.lease().toMillis(),
                    config.retention().toMillis(), fingerprint.version1());
        }
        return claimOf(answer, scope, fingerprint, recordKey, claimId);
    }

    /** The key's claim, for another claim script of its slot to make first; {@code found} learns what it found. */
    ClaimAlongside alongside(KeyScope scope, Fingerprint fingerprint, Consumer<KeyClaim> found) {
        String recordKey = recordKey(scope);
        String claimId = UUID.randomUUID().toString();
        return new Alongside(recordKey, List.of(fingerprint.value(), claimId, config.lease().toMillis(), config.retention().toMillis()),
                answer -> found.accept(isVersion1Mismatch(answer, fingerprint)
                        ? claim(scope, fingerprint) : claimOf(answer, scope, fingerprint, recordKey, claimId)));
    }

    private record Alongside(String record, List<Object> arguments, Consumer<Response> onAnswer) implements ClaimAlongside {

        @Override
        public void found(Response answer) {
            onAnswer.accept(answer);
        }
    }

    private static boolean isVersion1Mismatch(Response answer, Fingerprint fingerprint) {
        return "mismatch".equals(answer.get(0).toString()) && fingerprint.version1().equals(answer.get(1).toString());
    }

    private KeyClaim claimOf(Response answer, KeyScope scope, Fingerprint fingerprint, String recordKey, String claimId) {
        KeyClaim.Outcome outcome = switch (answer.get(0).toString()) {
            case "claimed" -> KeyClaim.Outcome.CLAIMED;
            case "taken-over" -> KeyClaim.Outcome.TAKEN_OVER;
            case "in-use" -> KeyClaim.Outcome.IN_USE;
            case "mismatch" -> KeyClaim.Outcome.MISMATCH;
            default -> KeyClaim.Outcome.REPLAY;
        };
        StoredAnswer stored = outcome == KeyClaim.Outcome.REPLAY
                ? StoredAnswer.read(answer.get(1).toInteger(), answer.get(2).toString(), answer.get(3).toString(), json, seal) : null;
        return new KeyClaim(outcome, scope, fingerprint, recordKey, outcome.holds() ? claimId : null, stored);
    }

    /**
     * Keeps the final answer of the request with this fingerprint for replay, for as long as it is kept;
     * false when the claim was no longer this holder's. Nothing is sent before the answer is subscribed to.
     */
    public Uni<Boolean> complete(KeyClaim claim, String fingerprint, StoredAnswer answer, Duration keptFor) {
        return COMPLETE.run(reactive, List.of(claim.recordKey()), claim.claimId(), answer.status(), answer.headersJson(json), answer.keptBody(seal),
                Math.max(1, keptFor.toMillis()), fingerprint).map(stored -> stored.toInteger() == 1);
    }

    /** Frees the key so that a retry runs again; false when the claim was no longer this holder's. */
    public boolean release(KeyClaim claim) {
        return RELEASE.run(redis, List.of(claim.recordKey()), claim.claimId()).toInteger() == 1;
    }

    /** The key's record in Redis. */
    String recordKey(KeyScope scope) {
        return keys.ofPrincipal(scope.principal(), "idempotency:" + Hashing.sha256Hex(scope.method() + "\n" + scope.path() + "\n" + scope.key()));
    }
}
