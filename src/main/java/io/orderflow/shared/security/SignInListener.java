package io.orderflow.shared.security;

import java.util.Map;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Learns of every caller signed in with an HTTP request, on the thread that signed them in, and passes
 * the identity on unchanged. An augmentor rather than an observer of Quarkus's authentication success
 * event, which Quarkus fires (and hands to a worker thread) on every request only while it is observed.
 */
public interface SignInListener extends SecurityIdentityAugmentor {

    /** A caller was signed in with this request: by a password, a session cookie or a bearer token. */
    void signedIn(SecurityIdentity identity, RoutingContext http);

    @Override
    default Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        return Uni.createFrom().item(identity);
    }

    @Override
    default Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context, Map<String, Object> attributes) {
        RoutingContext http = HttpSecurityUtils.getRoutingContextAttribute(attributes);
        if (http != null && !identity.isAnonymous()) {
            signedIn(identity, http);
        }
        return Uni.createFrom().item(identity);
    }
}
