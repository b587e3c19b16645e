package io.orderflow.user;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.shared.security.SignInOrder;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.smallrye.mutiny.Uni;

/**
 * Refuses a user name no user can have before the user store is asked: such a name (a NUL byte
 * from a spoiled Basic header, say) would fail PostgreSQL's query and look like a database
 * outage, where it is only a wrong sign-in (401).
 */
@ApplicationScoped
class UserNameCheck implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return SignInOrder.NAME_CHECK;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        String name = request.getUsername();
        return name != null && UserAccounts.NAME.matcher(name).matches()
                ? Uni.createFrom().nullItem()
                : Uni.createFrom().failure(new AuthenticationFailedException("No user can have this name"));
    }
}
