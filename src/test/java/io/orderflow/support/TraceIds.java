package io.orderflow.support;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Random W3C trace context ids, as a traced client makes them. */
public final class TraceIds {

    private TraceIds() {
    }

    /** A random id of this many bytes in hex: 16 for a trace id, 8 for a span id. */
    public static String hex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
