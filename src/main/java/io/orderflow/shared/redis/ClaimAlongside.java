package io.orderflow.shared.redis;

import java.util.List;

import io.vertx.mutiny.redis.client.Response;

/**
 * A claim of another record in the caller's slot, made first by the caller's own claim script in the
 * same round trip; the caller's claim is made there only when this one was claimed afresh.
 */
public interface ClaimAlongside {

    /** The record to claim. */
    String record();

    /** The claim's arguments, which the script takes after the caller's own. */
    List<Object> arguments();

    /** Acts on what the claim found; throws when that alone answers the request, which then claims nothing more. */
    void found(Response answer);
}
