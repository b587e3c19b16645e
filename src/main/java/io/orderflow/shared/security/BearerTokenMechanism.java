package io.orderflow.shared.security;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.smallrye.jwt.runtime.auth.JWTAuthMechanism;
import io.quarkus.vertx.http.runtime.security.BasicAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Lets API clients send a JWT bearer token wherever the API takes HTTP Basic credentials. The API's
 * resources select the Basic mechanism ({@link BasicAuthentication}), so that the web pages' session
 * cookie never authenticates an API call, and Quarkus lets an annotation select one mechanism only.
 * A request whose {@code Authorization} header is a bearer token is offered this mechanism under that
 * same scheme, ahead of Quarkus's Basic mechanism, and SmallRye JWT verifies the token; every other
 * request finds Quarkus's Basic mechanism as before. Verifying a token never opens a session.
 */
@ApplicationScoped
public class BearerTokenMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "bearer ";

    private final JWTAuthMechanism tokens;

    public BearerTokenMechanism(JWTAuthMechanism tokens) {
        this.tokens = tokens;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        return carriesBearerToken(context) ? tokens.authenticate(context, identityProviderManager) : Uni.createFrom().nullItem();
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return tokens.getChallenge(context);
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return tokens.getCredentialTypes();
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return carriesBearerToken(context)
                ? Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION,
                        BasicAuthentication.AUTH_MECHANISM_SCHEME))
                : Uni.createFrom().nullItem();
    }

    @Override
    public int getPriority() {
        return BasicAuthenticationMechanism.PRIORITY + 1;
    }

    private static boolean carriesBearerToken(RoutingContext context) {
        String authorization = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length());
    }
}
