package io.orderflow.user;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.JsonWebToken;

import io.orderflow.shared.security.TokenRefusals;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;

/**
 * A bearer token's caller is its subject, which must not be the name of a user who signs in with a
 * password: otherwise an identity provider that issues a subject {@code alice} (a user it let choose
 * her name, or one of its own that happens to be called so) would act on the orders of this service's
 * own alice. Such a token is refused as a wrong credential. Where the tokens are the service's own
 * (dev, test and the demo sign them for their seeded users: {@code orders.users.tokens-may-name-users}),
 * a subject may name a user, unless that user is disabled.
 */
@ApplicationScoped
class TokenSubjectsApart implements SecurityIdentityAugmentor {

    private final UserRows rows;
    private final boolean tokensMayNameUsers;

    TokenSubjectsApart(UserRows rows, UserConfig config) {
        this.rows = rows;
        this.tokensMayNameUsers = config.tokensMayNameUsers();
    }

    /** After the subject became the caller's name (shared.security.TokenSubjectAugmentor, priority 0). */
    @Override
    public int priority() {
        return -1;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        // A subject no user can have (a NUL byte, say, would fail PostgreSQL's query) names no user.
        if (!(identity.getPrincipal() instanceof JsonWebToken) || !UserAccounts.NAME.matcher(identity.getPrincipal().getName()).matches()) {
            return Uni.createFrom().item(identity);
        }
        String subject = identity.getPrincipal().getName();
        return context.runBlocking(() -> {
            User user = rows.find(subject);
            if (user != null && !tokensMayNameUsers) {
                throw TokenRefusals.subjectRefused("its subject (sub) is the name of a user who signs in with a password");
            }
            if (user != null && user.disabledAt != null) {
                throw TokenRefusals.subjectRefused("its subject (sub) is a user who is disabled");
            }
            return identity;
        });
    }
}
