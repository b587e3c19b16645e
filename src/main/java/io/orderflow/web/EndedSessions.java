package io.orderflow.web;

import java.time.Duration;
import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.shared.redis.RedisKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyCommands;
import io.quarkus.redis.datasource.value.ValueCommands;

/**
 * Sessions ended by sign-out, in Redis, shared by every instance. The session cookie is an encrypted
 * value that any instance would still accept after sign-out, so each signed-out session id is kept
 * until its session would have ended anyway (orders.web.session-lifetime after sign-in) and every
 * page a session cookie opens asks here first: one EXISTS. While Redis does not answer the pages
 * answer 503 rather than take a session that may have signed out (checkout needs Redis for its order
 * tokens all the same).
 */
@ApplicationScoped
class EndedSessions {

    private final ValueCommands<String, String> values;
    private final KeyCommands<String> keyCommands;
    private final RedisKeys keys;

    public EndedSessions(RedisDataSource redis, RedisKeys keys) {
        this.values = redis.value(String.class);
        this.keyCommands = redis.key();
        this.keys = keys;
    }

    /** Ends the session for good, on every instance. */
    void end(CsrfTokens.Session session, Instant wouldEnd) {
        long seconds = Math.max(1, Duration.between(Instant.now(), wouldEnd).toSeconds() + 1);
        values.setex(key(session.id()), seconds, "1");
    }

    boolean hasEnded(CsrfTokens.Session session) {
        return keyCommands.exists(key(session.id()));
    }

    private String key(String sessionId) {
        return keys.of("session:" + sessionId, "ended");
    }
}
