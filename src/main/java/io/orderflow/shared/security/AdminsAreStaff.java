package io.orderflow.shared.security;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * An admin is staff as well: a user's row holds one role, and a bearer token may name admin alone, so every identity
 * with {@value Caller#ADMIN}, however it signed in (password, session or token), also gets {@value Caller#STAFF}.
 * One augmentor rather than each identity provider, so no way in forgets it.
 */
@ApplicationScoped
public class AdminsAreStaff implements SecurityIdentityAugmentor {

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (!identity.hasRole(Caller.ADMIN) || identity.hasRole(Caller.STAFF)) {
            return Uni.createFrom().item(identity);
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity).addRole(Caller.STAFF).build());
    }
}
