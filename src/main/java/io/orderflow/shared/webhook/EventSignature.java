package io.orderflow.shared.webhook;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a provider's event notification, as card providers sign their webhooks: header
 * {@code Provider-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody" with the shared secret>}.
 * The timestamp is inside the signed text, so an old notification cannot be sent again as new.
 */
public final class EventSignature {

    public static final String HEADER = "Provider-Signature";

    /** Why a notification is refused. */
    public static final class InvalidSignatureException extends RuntimeException {
        InvalidSignatureException(String message) {
            super(message, null, false, false);
        }
    }

    private EventSignature() {
    }

    /** The header value that signs {@code body} at {@code at}. */
    public static String sign(String secret, Instant at, byte[] body) {
        return "t=" + at.getEpochSecond() + ",v1=" + HexFormat.of().formatHex(hmac(secret, at.getEpochSecond(), body));
    }

    /**
     * Checks a notification's header against its raw body: a {@code v1} signature of this secret, made
     * within {@code tolerance} of {@code now} (either way, for clocks a little apart).
     */
    public static void verify(String header, byte[] body, String secret, Duration tolerance, Instant now) {
        if (header == null || header.isBlank()) {
            throw new InvalidSignatureException("The " + HEADER + " header is missing.");
        }
        Long timestamp = null;
        List<String> signatures = new ArrayList<>();
        for (String part : header.split(",")) {
            String[] pair = part.trim().split("=", 2);
            if (pair.length == 2 && pair[0].equals("t")) {
                timestamp = timestamp(pair[1]);
            } else if (pair.length == 2 && pair[0].equals("v1")) {
                signatures.add(pair[1]);
            }
        }
        if (timestamp == null) {
            throw new InvalidSignatureException("The signature has no timestamp.");
        }
        byte[] expected = hmac(secret, timestamp, body);
        if (signatures.stream().noneMatch(signature -> MessageDigest.isEqual(expected, hex(signature)))) {
            throw new InvalidSignatureException("No signature matches the body.");
        }
        if (Duration.between(Instant.ofEpochSecond(timestamp), now).abs().compareTo(tolerance) > 0) {
            throw new InvalidSignatureException("The signature's timestamp is outside the tolerance of " + tolerance.toSeconds() + " s.");
        }
    }

    private static long timestamp(String seconds) {
        try {
            return Long.parseLong(seconds);
        } catch (NumberFormatException e) {
            throw new InvalidSignatureException("The signature's timestamp is not a number.");
        }
    }

    private static byte[] hex(String text) {
        try {
            return HexFormat.of().parseHex(text);
        } catch (IllegalArgumentException notHex) {
            return new byte[0];
        }
    }

    private static byte[] hmac(String secret, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
        }
    }
}
