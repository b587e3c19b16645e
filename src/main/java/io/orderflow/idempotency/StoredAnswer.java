package io.orderflow.idempotency;

import java.util.Map;

/** A final answer kept for replay: status, body and the headers a client relies on. */
public record StoredAnswer(int status, Map<String, String> headers, String body) {
}
