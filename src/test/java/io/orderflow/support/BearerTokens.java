package io.orderflow.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JWTs as an identity provider signs them, with the key the dev and test profiles trust (ops/jwt) or another. */
public final class BearerTokens {

    public static final String ISSUER = "https://orderflow.example/dev-issuer";
    public static final String AUDIENCE = "orders-api";
    public static final PrivateKey DEV_KEY = devKey();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
    private static final ObjectMapper JSON = new ObjectMapper();

    private BearerTokens() {
    }

    /** The claims of a token for this subject and role, valid for five minutes from now. */
    public static Map<String, Object> claims(String subject, String role) {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", ISSUER);
        claims.put("aud", AUDIENCE);
        claims.put("sub", subject);
        claims.put("groups", List.of(role));
        claims.put("iat", now);
        claims.put("exp", now + 300);
        claims.put("jti", UUID.randomUUID().toString());
        return claims;
    }

    /** The claims signed with RS256. */
    public static String sign(Map<String, Object> claims, PrivateKey key) {
        String content = encode(Map.of("alg", "RS256", "typ", "JWT")) + "." + encode(claims);
        try {
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(key);
            signature.update(content.getBytes(StandardCharsets.US_ASCII));
            return content + "." + BASE64URL.encodeToString(signature.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token part: the JSON, base64url without padding. */
    public static String encode(Map<String, Object> json) {
        try {
            return BASE64URL.encodeToString(JSON.writeValueAsBytes(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PrivateKey devKey() {
        try {
            String pem = Files.readString(Path.of("ops/jwt/dev-private-key.pem"));
            byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A token signed by {@code ops/sign-token.sh} with these arguments, with the committed key, also in a checkout
     * where a demo once ran and left its own.
     */
    public static String fromScript(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ops/sign-token.sh"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("JWT_PRIVATE_KEY", "ops/jwt/dev-private-key.pem");
        Process process = builder.start();
        String token = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException("ops/sign-token.sh " + String.join(" ", arguments) + " failed");
        }
        return token;
    }
}
