package io.orderflow.user;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TrustedAuthenticationRequest;
import io.quarkus.security.jpa.common.runtime.JpaIdentityProviderUtil;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * Who a signed-in session's cookie names, read from the users table at each of its requests, in place of
 * quarkus-security-jpa's own provider (which it runs ahead of): the same one lookup, which also refuses a user
 * disabled or removed since signing in, so that such a session ends at its next request (the pages then ask for a
 * sign-in). A user store that cannot answer is {@link UserStoreUnavailableException} (503), as for passwords.
 */
@ApplicationScoped
class SessionUsers implements IdentityProvider<TrustedAuthenticationRequest> {

    private final UserRows rows;

    SessionUsers(UserRows rows) {
        this.rows = rows;
    }

    @Override
    public Class<TrustedAuthenticationRequest> getRequestType() {
        return TrustedAuthenticationRequest.class;
    }

    /** First: ahead of quarkus-security-jpa's provider (priority 1001), which it replaces. */
    @Override
    public int priority() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TrustedAuthenticationRequest request, AuthenticationRequestContext context) {
        return context.runBlocking(() -> identity(request.getPrincipal()));
    }

    private SecurityIdentity identity(String name) {
        User user = rows.find(name);
        if (user == null || user.disabledAt != null) {
            throw new AuthenticationFailedException("The session's user is disabled or gone");
        }
        QuarkusSecurityIdentity.Builder identity = QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(user.name));
        JpaIdentityProviderUtil.addRoles(identity, user.role);
        return identity.build();
    }
}
