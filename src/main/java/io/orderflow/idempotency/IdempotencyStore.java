package io.orderflow.idempotency;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.redis.RedisScript;
import io.quarkus.redis.datasource.RedisDataSource;
import io.vertx.mutiny.redis.client.Response;

/**
 * Idempotency-Key records in Redis, one per (principal, method, path, key): claimed atomically with
 * a lease, completed with the final answer, or released. Only the claim's holder may complete or
 * release it, so a slow holder whose lease ran out cannot overwrite its successor's answer.
 */
@ApplicationScoped
public class IdempotencyStore {

    private static final RedisScript CLAIM = RedisScript.load("idempotency-claim");
    private static final RedisScript COMPLETE = RedisScript.load("idempotency-complete");
    private static final RedisScript RELEASE = RedisScript.load("idempotency-release");
    private static final TypeReference<Map<String, String>> HEADERS = new TypeReference<>() {
    };

    private final RedisDataSource redis;
    private final RedisKeys keys;
    private final IdempotencyConfig config;
    private final ObjectMapper json;

    public IdempotencyStore(RedisDataSource redis, RedisKeys keys, IdempotencyConfig config, ObjectMapper json) {
        this.redis = redis;
        this.keys = keys;
        this.config = config;
        this.json = json;
    }

    public KeyClaim claim(String principal, String method, String path, String key, String fingerprint) {
        String recordKey = keys.ofPrincipal(principal, "idempotency:" + Hashing.sha256Hex(method + "\n" + path + "\n" + key));
        String claimId = UUID.randomUUID().toString();
        Response answer = CLAIM.run(redis, List.of(recordKey), fingerprint, claimId, config.lease().toMillis(),
                config.retention().toMillis());
        return switch (answer.get(0).toString()) {
            case "claimed" -> new KeyClaim(KeyClaim.Outcome.CLAIMED, recordKey, claimId, null);
            case "taken-over" -> new KeyClaim(KeyClaim.Outcome.TAKEN_OVER, recordKey, claimId, null);
            case "in-use" -> new KeyClaim(KeyClaim.Outcome.IN_USE, recordKey, null, null);
            case "mismatch" -> new KeyClaim(KeyClaim.Outcome.MISMATCH, recordKey, null, null);
            default -> new KeyClaim(KeyClaim.Outcome.REPLAY, recordKey, null, new StoredAnswer(answer.get(1).toInteger(),
                    readHeaders(answer.get(2).toString()), answer.get(3).toString()));
        };
    }

    /** Keeps the holder's final answer for replay; false when the claim was no longer this holder's. */
    public boolean complete(KeyClaim claim, StoredAnswer answer) {
        return COMPLETE.run(redis, List.of(claim.recordKey()), claim.claimId(), answer.status(), writeHeaders(answer.headers()),
                answer.body(), config.retention().toMillis()).toInteger() == 1;
    }

    /** Frees the key so that a retry runs again; false when the claim was no longer this holder's. */
    public boolean release(KeyClaim claim) {
        return RELEASE.run(redis, List.of(claim.recordKey()), claim.claimId()).toInteger() == 1;
    }

    private String writeHeaders(Map<String, String> headers) {
        try {
            return json.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Header values always serialise", e);
        }
    }

    private Map<String, String> readHeaders(String stored) {
        try {
            return json.readValue(stored, HEADERS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A stored answer's headers are unreadable", e);
        }
    }
}
