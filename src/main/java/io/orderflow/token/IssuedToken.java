package io.orderflow.token;

import java.time.Instant;

/** The answer to {@code POST /orders/token}. */
public record IssuedToken(String token, Instant expiresAt, long ttlSeconds) {
}
