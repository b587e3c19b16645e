package io.orderflow.user;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.orderflow.shared.security.SignInListener;
import io.orderflow.shared.security.SignInOrder;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Passwords verified in the last {@code orders.users.verified-for}, so that HTTP Basic, which sends
 * the password with every request, costs one bcrypt check and one user lookup per user and period
 * instead of per request. Only a password that signed in is remembered, under an HMAC with a key
 * drawn at start (never the password itself); a wrong one always goes to the user store (and to
 * sign-in throttling, which runs before this). A user disabled or given a new password on this instance
 * is forgotten at once; on the others within {@code orders.users.verified-for}.
 */
@ApplicationScoped
public class VerifiedPasswords implements IdentityProvider<UsernamePasswordAuthenticationRequest>, SignInListener {

    private static final String PENDING = VerifiedPasswords.class.getName() + ".pending";
    private static final int MAX_ENTRIES = 10_000;

    private final Cache<String, Verified> verified;
    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs = ThreadLocal.withInitial(this::newMac);

    /** Who signed in, with which roles. */
    private record Verified(String name, Set<String> roles) {
    }

    public VerifiedPasswords(UserConfig config) {
        this.verified = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).expireAfterWrite(config.verifiedFor()).build();
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.key = new SecretKeySpec(secret, "HmacSHA256");
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return SignInOrder.VERIFIED_PASSWORDS;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (http == null) {
            return Uni.createFrom().nullItem();
        }
        String fingerprint = fingerprint(request.getUsername(), request.getPassword().getPassword());
        SecurityIdentity known = identity(verified.getIfPresent(fingerprint));
        if (known == null) {
            http.put(PENDING, fingerprint);
        }
        return Uni.createFrom().item(known);
    }

    /** Who this is, if the password was verified lately; null if it must be checked. */
    public SecurityIdentity known(String name, char[] password) {
        return identity(verified.getIfPresent(fingerprint(name, password)));
    }

    private static SecurityIdentity identity(Verified known) {
        return known == null ? null
                : QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(known.name())).addRoles(known.roles()).build();
    }

    /** Remembers a password that the user store has just verified. */
    @Override
    public void signedIn(SecurityIdentity identity, RoutingContext http) {
        if (http.get(PENDING) instanceof String fingerprint) {
            verified.put(fingerprint, new Verified(identity.getPrincipal().getName(), Set.copyOf(identity.getRoles())));
        }
    }

    /** Forgets what was verified for a user disabled or given a new password by this instance, once that is committed. */
    void forget(@Observes(during = TransactionPhase.AFTER_SUCCESS) UserAccounts.CredentialsChanged changed) {
        verified.asMap().values().removeIf(known -> known.name().equals(changed.name()));
    }

    private String fingerprint(String name, char[] password) {
        Mac mac = macs.get();
        mac.update(name.getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 0);
        return Base64.getEncoder().encodeToString(mac.doFinal(new String(password).getBytes(StandardCharsets.UTF_8)));
    }

    /** A Mac is not thread-safe, and making one per request costs a provider lookup: one per thread, keyed once. */
    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is always available", e);
        }
    }
}
