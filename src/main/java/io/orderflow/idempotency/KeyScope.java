package io.orderflow.idempotency;

import io.orderflow.shared.Hashing;

/** What an Idempotency-Key is unique within: the principal, method and canonical path ({@link KeyRoute}) it was sent with, and the canonical key. */
record KeyScope(String principal, String method, String path, String key) {

    /** The scope in 32 bytes, whatever the lengths of its parts. */
    byte[] hash() {
        return Hashing.sha256(principal + "\n" + method + "\n" + path + "\n" + key);
    }
}
