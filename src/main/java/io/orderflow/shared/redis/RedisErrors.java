package io.orderflow.shared.redis;

/**
 * Reads Redis error replies. The blocking client wraps Vert.x's error, which is a Throwable but no
 * RuntimeException, so the whole cause chain is searched.
 */
public final class RedisErrors {

    private static final String CONNECTION_CLOSED = "CONNECTION_CLOSED";
    private static final String CLIENT_CLOSED = "Connection is closed";

    private RedisErrors() {
    }

    /**
     * Whether the error is the Redis connection failing under a command: the client fails the commands
     * in flight with a CONNECTION_CLOSED error and later ones with "Connection is closed" (neither is a
     * VertxException) when Redis restarts or the network drops. The command may not have run.
     */
    public static boolean isConnectionLost(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.ClosedChannelException || (t.getMessage() != null
                    && (t.getMessage().startsWith(CONNECTION_CLOSED) || t.getMessage().equals(CLIENT_CLOSED)))) {
                return true;
            }
        }
        return false;
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
