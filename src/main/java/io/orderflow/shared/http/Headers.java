package io.orderflow.shared.http;

public final class Headers {

    /** Marks an answer that repeats an earlier one instead of doing the work again. */
    public static final String REPLAYED = "Idempotent-Replayed";

    private Headers() {
    }
}
