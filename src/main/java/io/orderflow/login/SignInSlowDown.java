package io.orderflow.login;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.shared.security.SignInOrder;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Puts off the password check of a user being guessed at by the delay {@link SignInThrottle} chose,
 * on a Vert.x timer, so no thread waits meanwhile. Runs after passwords verified lately, so a user
 * whose client signs every request with Basic is slowed only when its password is checked again.
 */
@ApplicationScoped
class SignInSlowDown implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return SignInOrder.SLOW_DOWN;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils.getRoutingContextAttribute(request);
        SignInAttempt attempt = http == null ? null : SignInThrottle.attempt(http);
        if (attempt == null || attempt.delay().isZero()) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().emitter(later -> http.vertx().setTimer(attempt.delay().toMillis(), timer -> later.complete(null)));
    }
}
