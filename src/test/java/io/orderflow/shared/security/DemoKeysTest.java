package io.orderflow.shared.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;

import io.orderflow.support.FastTest;

/**
 * A demo is open to the internet: the keys committed for dev and test (session key, JWT key pair, sandbox
 * API key) are public, so the demo profile generates its own once and keeps them, or takes the environment's.
 */
@FastTest
class DemoKeysTest {

    private static final Path APPLICATION_PROPERTIES = Path.of("src/main/resources/application.properties");
    private static final Path COMMITTED_PUBLIC_KEY = Path.of("src/main/resources/jwt/dev-public-key.pem");

    @TempDir
    Path dir;

    @Test
    void applicationPropertiesGiveTheDemoProfileNoneOfTheCommittedKeys() throws IOException {
        SmallRyeConfig test = config("test", false, Map.of());
        SmallRyeConfig demo = config("demo", false, Map.of());

        assertThat(demo.getOptionalValue(DemoKeys.SESSION_KEY, String.class)).as("the demo's session key").isEmpty();
        assertThat(demo.getOptionalValue(DemoKeys.JWT_PUBLIC_KEY, String.class)).as("the demo's JWT public key").isEmpty();
        assertThat(demo.getOptionalValue(DemoKeys.SANDBOX_KEY, String.class)).as("the demo's sandbox API key").isEmpty();
        assertThat(test.getOptionalValue(DemoKeys.SESSION_KEY, String.class)).isPresent();
        assertThat(test.getOptionalValue(DemoKeys.JWT_PUBLIC_KEY, String.class)).isPresent();
        assertThat(test.getOptionalValue(DemoKeys.SANDBOX_KEY, String.class)).isPresent();
    }

    @Test
    void theDemoGeneratesItsOwnKeysOnceReadableByItsOwnerOnly() throws Exception {
        SmallRyeConfig test = config("test", true, Map.of());
        SmallRyeConfig demo = config("demo", true, Map.of());

        String sessionKey = demo.getValue(DemoKeys.SESSION_KEY, String.class);
        assertThat(sessionKey).hasSizeGreaterThanOrEqualTo(32).isNotEqualTo(test.getValue(DemoKeys.SESSION_KEY, String.class));
        String sandboxKey = demo.getValue(DemoKeys.SANDBOX_KEY, String.class);
        assertThat(sandboxKey).startsWith("sk_demo_").isNotEqualTo(test.getValue(DemoKeys.SANDBOX_KEY, String.class));
        String staffPassword = demo.getValue(DemoKeys.STAFF_PASSWORD, String.class);
        assertThat(staffPassword).hasSizeGreaterThanOrEqualTo(16).isNotEqualTo("ops");
        assertThat(test.getOptionalValue(DemoKeys.STAFF_PASSWORD, String.class)).as("dev and test keep ops/ops").isEmpty();
        // The app's REST clients send the sandbox's key.
        assertThat(demo.getValue("orders.payments.api-key", String.class)).isEqualTo(sandboxKey);
        assertThat(demo.getValue("orders.warehouse.api-key", String.class)).isEqualTo(sandboxKey);
        Path publicKey = dir.resolve(DemoKeys.PUBLIC_KEY_FILE);
        assertThat(demo.getValue(DemoKeys.JWT_PUBLIC_KEY, String.class)).isEqualTo("file:" + publicKey);
        assertThat(Files.readString(publicKey)).isNotEqualTo(Files.readString(COMMITTED_PUBLIC_KEY));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        try (var files = Files.list(dir)) {
            assertThat(files.map(file -> file.getFileName().toString()))
                    .containsExactlyInAnyOrder("session-key", "sandbox-api-key", DemoKeys.STAFF_PASSWORD_FILE, DemoKeys.PRIVATE_KEY_FILE,
                            DemoKeys.PUBLIC_KEY_FILE);
        }
        try (var files = Files.list(dir)) {
            files.forEach(file -> assertThat(permissions(file)).as(file.toString()).isEqualTo("rw-------"));
        }

        // A public key that no longer matches (its private key was replaced) is written again from the private key.
        Files.writeString(publicKey, Files.readString(COMMITTED_PUBLIC_KEY));
        SmallRyeConfig restarted = config("demo", true, Map.of());
        assertThat(restarted.getValue(DemoKeys.SESSION_KEY, String.class)).isEqualTo(sessionKey);
        assertThat(restarted.getValue(DemoKeys.SANDBOX_KEY, String.class)).isEqualTo(sandboxKey);
        assertThat(restarted.getValue(DemoKeys.STAFF_PASSWORD, String.class)).isEqualTo(staffPassword);
        assertThat(signs(dir.resolve(DemoKeys.PRIVATE_KEY_FILE), publicKey)).as("the private key kept signs what the public key verifies")
                .isTrue();
    }

    @Test
    void theSigningScriptSignsWithTheDemosKeyWhereADemoRanAndWithTheCommittedOneElsewhere() throws Exception {
        config("demo", true, Map.of());
        Path script = Path.of("ops", "sign-token.sh").toAbsolutePath();

        String forTheDemo = sign(script, Map.of("ORDERS_DEMO_KEY_DIR", dir.toString()));
        String forDev = sign(script, Map.of("ORDERS_DEMO_KEY_DIR", dir.resolve("none").toString()));

        assertThat(verifies(forTheDemo, dir.resolve(DemoKeys.PUBLIC_KEY_FILE))).as("the demo's key verifies its token").isTrue();
        assertThat(verifies(forTheDemo, COMMITTED_PUBLIC_KEY)).isFalse();
        assertThat(verifies(forDev, COMMITTED_PUBLIC_KEY)).as("the committed key verifies the token signed elsewhere").isTrue();
    }

    /** {@code ops/sign-token.sh alice}, with this environment, run from the project's directory. */
    private static String sign(Path script, Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(script.toString(), "alice").redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().remove("JWT_PRIVATE_KEY");
        builder.environment().putAll(environment);
        Process process = builder.start();
        String token = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertThat(process.waitFor()).isZero();
        return token;
    }

    private static boolean verifies(String token, Path publicKey) throws Exception {
        String[] parts = token.split("\\.");
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der(publicKey))));
        verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        return verifier.verify(Base64.getUrlDecoder().decode(parts[2]));
    }

    @Test
    void keysTheEnvironmentSetsAreTakenAndNoneIsGenerated() throws IOException {
        Map<String, String> environment = Map.of(DemoKeys.SESSION_KEY, "an-operators-session-key-of-32-characters-at-least",
                DemoKeys.JWT_PUBLIC_KEY, "https://idp.example/jwks", DemoKeys.SANDBOX_KEY, "sk_operators_own",
                DemoKeys.STAFF_PASSWORD, "an operator's own staff password");
        SmallRyeConfig demo = config("demo", true, environment);

        environment.forEach((name, value) -> assertThat(demo.getValue(name, String.class)).isEqualTo(value));
        assertThat(demo.getValue("orders.payments.api-key", String.class)).isEqualTo("sk_operators_own");
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void otherProfilesGetNothingFromIt() {
        config("test", true, Map.of());
        config("prod", true, Map.of());
        assertThat(dir).isEmptyDirectory();
    }

    /** The configuration of a profile from application.properties, an environment, and the demo keys if asked for. */
    private SmallRyeConfig config(String profile, boolean demoKeys, Map<String, String> environment) {
        try {
            SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder().withProfile(profile).addDefaultInterceptors()
                    .withSources(new PropertiesConfigSource(APPLICATION_PROPERTIES.toUri().toURL(), 250))
                    .withSources(new PropertiesConfigSource(environment, "environment", 300))
                    .withSources(new PropertiesConfigSource(Map.of(DemoKeys.KEY_DIR, dir.toString()), "key dir", 300));
            if (demoKeys) {
                builder.withSources(new DemoKeys());
            }
            return builder.build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String permissions(Path file) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean signs(Path privateKey, Path publicKey) throws Exception {
        KeyFactory rsa = KeyFactory.getInstance("RSA");
        byte[] message = "sub=ops".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(rsa.generatePrivate(new PKCS8EncodedKeySpec(der(privateKey))));
        signer.update(message);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(rsa.generatePublic(new X509EncodedKeySpec(der(publicKey))));
        verifier.update(message);
        return verifier.verify(signature);
    }

    private static byte[] der(Path pem) throws IOException {
        return Base64.getMimeDecoder().decode(Files.readString(pem).replaceAll("-----[A-Z ]+-----", ""));
    }
}
