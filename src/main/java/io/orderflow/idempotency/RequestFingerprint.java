package io.orderflow.idempotency;

import java.util.HexFormat;

import io.orderflow.shared.json.CanonicalJson;
import io.orderflow.shared.json.Fingerprint;

/**
 * What makes two requests the same request: method, path and body. A JSON body is compared in
 * {@link CanonicalJson canonical form}, so reordered members or {@code "2.50"} for {@code 2.5} do not
 * make another request; other bodies compare byte by byte.
 */
final class RequestFingerprint {

    private RequestFingerprint() {
    }

    public static Fingerprint of(String method, String path, byte[] body) {
        return Fingerprint.ofKeyRequest(method + "\n" + path + "\n" + canonical(body));
    }

    private static String canonical(byte[] body) {
        if (body.length == 0) {
            return "";
        }
        return CanonicalJson.of(body).map(json -> "json:" + json).orElseGet(() -> "bytes:" + HexFormat.of().formatHex(body));
    }
}
