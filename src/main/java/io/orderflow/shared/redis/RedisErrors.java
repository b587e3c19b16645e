package io.orderflow.shared.redis;

/**
 * Reads Redis error replies. The blocking client wraps Vert.x's error, which is a Throwable but no
 * RuntimeException, so the whole cause chain is searched.
 */
public final class RedisErrors {

    private RedisErrors() {
    }

    /** Whether the error's reply mentions the word, e.g. NOSCRIPT or BUSYGROUP. */
    public static boolean mentions(Throwable error, String word) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(word)) {
                return true;
            }
        }
        return false;
    }
}
