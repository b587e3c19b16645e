package io.orderflow.login;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.shared.security.SignInOrder;
import io.orderflow.user.VerifiedPasswords;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * The common case of HTTP Basic, which sends the password with every request: a password verified
 * lately, from an address that has not failed for the user since ({@link SignInClearances}), signs in
 * on the event loop with no Redis round trip, no thread hop and no hash. Anything else goes on to
 * {@link SignInThrottle} and the checks after it.
 */
@ApplicationScoped
class KnownSignIns implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    private final SignInClearances clearances;
    private final VerifiedPasswords passwords;

    public KnownSignIns(SignInClearances clearances, VerifiedPasswords passwords) {
        this.clearances = clearances;
        this.passwords = passwords;
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return SignInOrder.KNOWN;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (http == null || !clearances.isCleared(request.getUsername(), SignInThrottle.address(http))) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(passwords.known(request.getUsername(), request.getPassword().getPassword()));
    }
}
