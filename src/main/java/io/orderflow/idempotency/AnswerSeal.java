package io.orderflow.idempotency;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.quarkus.runtime.Startup;

/**
 * Seals the body of a kept answer that must not be readable where it is kept ({@link AnswerKeptSealed}: an
 * issued order token), with AES-256-GCM under a key derived from {@code quarkus.http.auth.session.encryption-key},
 * the secret every instance already shares; derived, so the session key itself only ever encrypts sessions.
 * Without that key no instance could open another's answers, so the service does not start (at start, not at
 * the first keyed token). A sealed body is {@value #SEALED} and base64 of nonce and ciphertext: a prefix no
 * JSON body has, so answers kept in plain text before stay readable.
 */
@Startup
@ApplicationScoped
class AnswerSeal {

    static final String SEALED = "sealed:1:";
    static final String SESSION_KEY = "quarkus.http.auth.session.encryption-key";

    private static final String CIPHER = "AES/GCM/NoPadding";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;

    AnswerSeal(@ConfigProperty(name = SESSION_KEY) Optional<String> sessionKey) {
        String secret = sessionKey.filter(value -> !value.isBlank()).orElseThrow(() -> new IllegalStateException(SESSION_KEY
                + " (QUARKUS_HTTP_AUTH_SESSION_ENCRYPTION_KEY) is not set: every instance needs the same one, which also seals "
                + "the answers kept for Idempotency-Keys that hold an order token"));
        this.key = new SecretKeySpec(derive(secret), "AES");
    }

    /** The body as it is kept: sealed. */
    String seal(String body) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            byte[] sealed = cipher.doFinal(body.getBytes(StandardCharsets.UTF_8));
            return SEALED + Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK", e);
        }
    }

    static boolean isSealed(String kept) {
        return kept.startsWith(SEALED);
    }

    /** A sealed body opened again, exactly as it was sealed. */
    String open(String kept) {
        try {
            byte[] sealed = Base64.getDecoder().decode(kept.substring(SEALED.length()));
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            return new String(cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // Sealed under another session key (rotated since, or not shared by every instance): the answer is gone for good.
            throw new ProblemException(Problem.of(ProblemCode.IDEMPOTENCY_KEY_EXPIRED, "The answer kept for this Idempotency-Key can no "
                    + "longer be read (the service's keys changed); send the request again with a new key."));
        }
    }

    private static byte[] derive(String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal("orderflow idempotency answer sealing".getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
