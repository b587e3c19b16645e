package io.orderflow.web;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Signs what the web pages bind to a browser (CSRF tokens, the session's id) with HMAC-SHA256 under a
 * key derived from {@code quarkus.http.auth.session.encryption-key}, which every instance shares; so
 * only the service can make a token, and a cookie planted from elsewhere signs nothing. Derived, so
 * the session key itself only ever encrypts. Without that key Quarkus draws one at random for its
 * session cookies, which then hold on one instance only; so is this one.
 */
@ApplicationScoped
class FormSigning {

    private static final String ALGORITHM = "HmacSHA256";
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final SecureRandom random = new SecureRandom();
    private final SecretKeySpec key;

    public FormSigning(@ConfigProperty(name = "quarkus.http.auth.session.encryption-key") Optional<String> sessionKey) {
        byte[] material;
        if (sessionKey.isPresent()) {
            material = mac(new SecretKeySpec(sessionKey.get().getBytes(StandardCharsets.UTF_8), ALGORITHM), "orderflow web form signing");
        } else {
            material = new byte[32];
            random.nextBytes(material);
        }
        this.key = new SecretKeySpec(material, ALGORITHM);
    }

    /** The signature of the parts (each may hold any text), base64url: 43 characters. */
    public String sign(String... parts) {
        return BASE64URL.encodeToString(mac(key, String.join("\u0000", parts)));
    }

    /** 128 random bits, base64url: 22 characters. */
    public String draw() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return BASE64URL.encodeToString(bytes);
    }

    /** Compares in constant time; false when either is missing. */
    public static boolean same(String expected, String sent) {
        return expected != null && sent != null
                && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] mac(SecretKeySpec key, String text) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
