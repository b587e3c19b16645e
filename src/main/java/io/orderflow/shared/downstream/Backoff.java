package io.orderflow.shared.downstream;

import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with "equal jitter": the delay doubles per retry up to a cap, and half of it is random. */
public final class Backoff {

    private Backoff() {
    }

    /** The wait before retry {@code retry} (0 for the first): between half and all of min(max, base * 2^retry). */
    public static long equalJitter(long baseMillis, long maxMillis, int retry) {
        long ceiling = Math.min(maxMillis, baseMillis << Math.min(retry, 30));
        return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
    }
}
