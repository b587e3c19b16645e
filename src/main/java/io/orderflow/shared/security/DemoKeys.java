package io.orderflow.shared.security;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.logging.Logger;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.PropertiesConfigSource;

/**
 * Gives the demo profile keys of its own, since a demo is open to the internet and the committed keys
 * are public: the session cookie's encryption key, the public key that verifies bearer tokens (its
 * private key kept beside it for the operator to sign with: {@code JWT_PRIVATE_KEY=demo-keys/jwt-private-key.pem
 * ops/sign-token.sh ops staff}), the sandbox providers' secret API key and the staff user {@code ops}'s
 * password (the demo users' others stay public; its own is told once, in the log line of the start that
 * generated it). Each is generated at the first
 * start into {@value #KEY_DIR} (default {@value #DEFAULT_KEY_DIR} under the working directory; the
 * directory 0700, the files 0600) and read from there at later starts, unless the environment sets it.
 * A config source factory, because these are read while the runtime configuration is built.
 */
public class DemoKeys implements ConfigSourceFactory {

    public static final String KEY_DIR = "orders.demo.key-dir";
    public static final String DEFAULT_KEY_DIR = "demo-keys";
    static final String SESSION_KEY = "quarkus.http.auth.session.encryption-key";
    static final String JWT_PUBLIC_KEY = "mp.jwt.verify.publickey.location";
    static final String SANDBOX_KEY = "orders.sandbox.api-key";
    public static final String STAFF_PASSWORD = "orders.demo.staff-password";
    static final String STAFF_PASSWORD_FILE = "staff-password";
    static final String PRIVATE_KEY_FILE = "jwt-private-key.pem";
    static final String PUBLIC_KEY_FILE = "jwt-public-key.pem";

    private static final Logger LOG = Logger.getLogger(DemoKeys.class);
    // Above application.properties (250); below environment variables (300) and system properties (400),
    // so a key the operator sets wins.
    private static final int ORDINAL = 275;
    private static final SecureRandom RANDOM = new SecureRandom();
    // The configuration may be built more than once in a run: one line says it all.
    private static final AtomicBoolean TOLD = new AtomicBoolean();

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        if (!context.getProfiles().contains("demo")) {
            return List.of();
        }
        String configured = value(context, KEY_DIR);
        Path dir = Path.of(configured == null ? DEFAULT_KEY_DIR : configured).toAbsolutePath();
        Map<String, String> keys = new LinkedHashMap<>();
        List<String> fromEnvironment = new ArrayList<>();
        List<String> generated = new ArrayList<>();
        if (value(context, SESSION_KEY) != null) {
            fromEnvironment.add("session key");
        } else {
            keys.put(SESSION_KEY, secret(dir.resolve("session-key"), () -> random(32), "session key", generated));
        }
        if (value(context, JWT_PUBLIC_KEY) != null || value(context, "mp.jwt.verify.publickey") != null) {
            fromEnvironment.add("JWT public key");
        } else {
            keys.put(JWT_PUBLIC_KEY, "file:" + publicKey(dir, generated));
        }
        if (value(context, SANDBOX_KEY) != null) {
            fromEnvironment.add("sandbox API key");
        } else {
            keys.put(SANDBOX_KEY, secret(dir.resolve("sandbox-api-key"), () -> "sk_demo_" + random(24), "sandbox API key", generated));
        }
        if (value(context, STAFF_PASSWORD) != null) {
            fromEnvironment.add("staff password");
        } else {
            keys.put(STAFF_PASSWORD, secret(dir.resolve(STAFF_PASSWORD_FILE), () -> random(12), "staff password", generated));
        }
        if (TOLD.compareAndSet(false, true)) {
            LOG.infof("Demo keys: %s in %s (%s); from the environment: %s. Sign bearer tokens with %s.%s",
                    keys.isEmpty() ? "none" : String.join(", ", describe(keys)), dir,
                    generated.isEmpty() ? "kept from an earlier start" : "generated now: " + String.join(", ", generated),
                    fromEnvironment.isEmpty() ? "none" : String.join(", ", fromEnvironment),
                    keys.containsKey(JWT_PUBLIC_KEY) ? dir.resolve(PRIVATE_KEY_FILE) : "the environment's key",
                    generated.contains("staff password") ? " The staff user ops signs in with the password " + keys.get(STAFF_PASSWORD)
                            + " (kept in " + dir.resolve(STAFF_PASSWORD_FILE) + "; said this once)." : "");
        }
        return List.of(new PropertiesConfigSource(keys, "demo keys in " + dir, ORDINAL));
    }

    private static List<String> describe(Map<String, String> keys) {
        return keys.keySet().stream().map(name -> switch (name) {
            case SESSION_KEY -> "session key";
            case JWT_PUBLIC_KEY -> "JWT public key";
            case STAFF_PASSWORD -> "staff password";
            default -> "sandbox API key";
        }).toList();
    }

    /** The secret kept in the file, generated into it first if there is none. */
    private static String secret(Path file, Supplier<String> generate, String name, List<String> generated) {
        if (write(file, generate.get(), false)) {
            generated.add(name);
        }
        return read(file).trim();
    }

    /**
     * The public key's file, derived from the private key, which is generated first if there is none: the
     * private key is the one file that decides, so instances starting together never end with a pair that
     * does not match.
     */
    private static Path publicKey(Path dir, List<String> generated) {
        Path privateKey = dir.resolve(PRIVATE_KEY_FILE);
        try {
            KeyPairGenerator pairs = KeyPairGenerator.getInstance("RSA");
            pairs.initialize(2048, RANDOM);
            if (!Files.exists(privateKey)
                    && write(privateKey, pem("PRIVATE KEY", pairs.generateKeyPair().getPrivate().getEncoded()), false)) {
                generated.add("JWT key pair");
            }
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            RSAPrivateCrtKey key = (RSAPrivateCrtKey) rsa.generatePrivate(new PKCS8EncodedKeySpec(fromPem(read(privateKey))));
            byte[] publicKey = rsa.generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent())).getEncoded();
            Path file = dir.resolve(PUBLIC_KEY_FILE);
            // Rewritten at every start, so it always matches the private key beside it.
            write(file, pem("PUBLIC KEY", publicKey), true);
            return file;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The demo's JWT key pair in " + dir + " is unusable: " + e.getMessage(), e);
        }
    }

    /**
     * Writes the file readable by its owner only, unless it exists and is not to be replaced; false when it
     * existed. The content goes to a private temporary file first, which then takes the name in one atomic
     * step: a link, which never replaces a file, or a rename, which does.
     */
    private static boolean write(Path file, String content, boolean replace) {
        try {
            Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            if (Files.exists(file) && !replace) {
                return false;
            }
            Path draft = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".new",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try {
                Files.writeString(draft, content);
                if (replace) {
                    Files.move(draft, file, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    Files.createLink(file, draft);
                }
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            } finally {
                Files.deleteIfExists(draft);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot keep the demo's keys in " + file.getParent() + " (" + KEY_DIR + ")", e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the demo key " + file, e);
        }
    }

    private static String random(int bytes) {
        byte[] secret = new byte[bytes];
        RANDOM.nextBytes(secret);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static byte[] fromPem(String pem) {
        return Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    }

    private static String value(ConfigSourceContext context, String name) {
        ConfigValue value = context.getValue(name);
        return value == null ? null : value.getValue();
    }
}
