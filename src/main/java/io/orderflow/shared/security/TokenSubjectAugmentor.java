package io.orderflow.shared.security;

import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * A bearer token's caller is its subject. SmallRye JWT would name the caller by {@code upn} or
 * {@code preferred_username} first, claims an identity provider may let users set; the subject is the
 * one the provider vouches for. A subject that is no string of 1 to 255 characters (what an order's
 * owner can hold) is refused.
 */
@ApplicationScoped
public class TokenSubjectAugmentor implements SecurityIdentityAugmentor {

    private static final int MAX_NAME_LENGTH = 255;

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (!(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Uni.createFrom().item(identity);
        }
        Object subject = token.getClaim(Claims.sub.name());
        if (!(subject instanceof String name) || name.isBlank() || name.length() > MAX_NAME_LENGTH) {
            return Uni.createFrom().failure(TokenRefusals.subjectRefused("its subject (sub) is no string of 1 to " + MAX_NAME_LENGTH + " characters"));
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder(identity).setPrincipal(new SubjectNamedToken(token, name)).build());
    }

    /** The token unchanged but for its name, so that code reading its claims still finds them. */
    record SubjectNamedToken(JsonWebToken token, String subject) implements JsonWebToken {

        @Override
        public String getName() {
            return subject;
        }

        @Override
        public Set<String> getClaimNames() {
            return token.getClaimNames();
        }

        @Override
        public <T> T getClaim(String claimName) {
            return token.getClaim(claimName);
        }
    }
}
