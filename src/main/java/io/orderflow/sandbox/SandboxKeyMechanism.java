package io.orderflow.sandbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.BasicAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Takes the sandbox's secret API key, {@code Authorization: Bearer <orders.sandbox.api-key>}, as a real
 * provider takes its secret key: the caller is the role {@value SandboxResource#CLIENT}, under
 * {@code /sandbox/} only, so the key opens nothing of the API. The sandbox's resource selects the Basic
 * mechanism (as every API resource does), so this one offers itself under that scheme, ahead of the JWT
 * bearer mechanism, and only for a request carrying exactly the key: any other bearer token goes on to be
 * verified as a JWT.
 */
@ApplicationScoped
public class SandboxKeyMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "Bearer ";
    private static final String SANDBOX_PATH = "/sandbox/";

    private final SandboxConfig config;

    public SandboxKeyMechanism(SandboxConfig config) {
        this.config = config;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        return carriesTheKey(context)
                ? Uni.createFrom().item(QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(SandboxResource.CLIENT))
                        .addRole(SandboxResource.CLIENT).build())
                : Uni.createFrom().nullItem();
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer realm=\"sandbox\""));
    }

    /** None: the key is checked here, by no identity provider. */
    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return carriesTheKey(context)
                ? Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION,
                        BasicAuthentication.AUTH_MECHANISM_SCHEME))
                : Uni.createFrom().nullItem();
    }

    /** Ahead of the JWT bearer mechanism (io.orderflow.shared.security.BearerTokenMechanism), which is ahead of Basic. */
    @Override
    public int getPriority() {
        return BasicAuthenticationMechanism.PRIORITY + 2;
    }

    private boolean carriesTheKey(RoutingContext context) {
        String authorization = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null || !context.normalizedPath().startsWith(SANDBOX_PATH) || config.apiKey().isEmpty()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        // In constant time, so the answer's timing tells nothing about the key.
        return MessageDigest.isEqual(authorization.substring(BEARER.length()).getBytes(StandardCharsets.UTF_8),
                config.apiKey().get().getBytes(StandardCharsets.UTF_8));
    }
}
