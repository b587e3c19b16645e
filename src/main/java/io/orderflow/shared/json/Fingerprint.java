package io.orderflow.shared.json;

import java.util.Map;
import java.util.function.Supplier;

import io.orderflow.shared.Hashing;

/**
 * What a request is stored with, so that a retry can tell the same request from another: the SHA-256
 * (64 hex characters) of a version line and the request's {@link CanonicalJson canonical form}. A
 * fingerprint stored under version 1 still matches the same request (see {@link Version1Fingerprints});
 * it is computed only when the current one does not match, so a request is hashed once.
 */
public final class Fingerprint {

    /** The first line hashed; a new canonical form needs a new version, and the one before a way to match. */
    private static final String VERSION = "fingerprint/2\n";

    private final String value;
    private final Supplier<String> version1;
    private String ofVersion1;

    private Fingerprint(String canonical, Supplier<String> version1) {
        this.value = Hashing.sha256Hex(VERSION + canonical);
        this.version1 = version1;
    }

    /** An Idempotency-Key's request: its method, path and canonical body, one a line. */
    public static Fingerprint ofKeyRequest(String request) {
        return new Fingerprint(request, () -> Version1Fingerprints.ofKeyRequest(request));
    }

    /** An order request: its currency and items, amounts at the currency's scale (version 1 wrote them so). */
    public static Fingerprint ofOrder(Map<String, ?> order) {
        return new Fingerprint(CanonicalJson.write(order), () -> Version1Fingerprints.ofOrder(order));
    }

    /** What is stored for the request. */
    public String value() {
        return value;
    }

    /** What version 1 stored for the same request. */
    public String version1() {
        if (ofVersion1 == null) {
            ofVersion1 = version1.get();
        }
        return ofVersion1;
    }

    /** Whether a stored fingerprint is this request's, stored now or by version 1. */
    public boolean matches(String stored) {
        return value.equals(stored) || version1().equals(stored);
    }
}
