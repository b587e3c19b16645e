package io.orderflow.user;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.orderflow.shared.security.SignInOrder;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.jpa.common.runtime.JpaIdentityProviderUtil;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;

/**
 * Checks a user name and password against the users table, in place of quarkus-security-jpa's
 * provider (as {@link SessionUsers} does for signed-in sessions), for these reasons:
 * <ul>
 * <li>A wrong password costs the same for every name, so time tells no name apart: an unknown name is
 * checked against a dummy hash at {@code orders.users.bcrypt-cost}, the cost a new account gets; a wrong
 * password for an account hashed at a lower cost (the demo users' 4) is padded with that same check; and
 * an account hashed at a higher cost is hashed again at the configured one at its next right sign-in.</li>
 * <li>A disabled user is refused as an unknown name is, at the same cost.</li>
 * <li>A user store that cannot answer is 503, not a wrong password ({@link UserRows}).</li>
 * </ul>
 */
@ApplicationScoped
class StoredPasswords implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    private static final Logger LOG = Logger.getLogger(StoredPasswords.class);
    /** Where the cost sits in a bcrypt hash in Modular Crypt Format: {@code $2a$NN$...}. */
    private static final int COST_AT = 4;

    private final UserRows rows;
    private final UserAccounts accounts;
    private final UserConfig config;
    /** A hash at the configured cost of a password nobody has: what an unknown name, and a cheap account's wrong password, are checked against. */
    private final String dummyHash;

    public StoredPasswords(UserRows rows, UserAccounts accounts, UserConfig config) {
        this.rows = rows;
        this.accounts = accounts;
        this.config = config;
        this.dummyHash = BcryptUtil.bcryptHash(UUID.randomUUID().toString(), config.bcryptCost());
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return SignInOrder.USER_STORE;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        return context.runBlocking(() -> check(request));
    }

    private SecurityIdentity check(UsernamePasswordAuthenticationRequest request) {
        User user = rows.find(request.getUsername());
        if (user != null && user.disabledAt != null) {
            // Checked as an unknown name is, against the dummy hash: neither the answer nor its time tells a disabled
            // user's right password from a wrong one, or the user from a name nobody has.
            user = null;
        }
        // The check quarkus-security-jpa makes: a wrong password of any shape is AuthenticationFailedException.
        QuarkusSecurityIdentity.Builder identity;
        try {
            identity = JpaIdentityProviderUtil.checkPassword(JpaIdentityProviderUtil.getMcfPassword(user != null ? user.password : dummyHash), request);
        } catch (AuthenticationFailedException wrong) {
            if (user != null && costOf(user.password) < config.bcryptCost()) {
                padToTheConfiguredCost(request);
            }
            throw wrong;
        }
        if (user == null) {
            throw new AuthenticationFailedException();
        }
        if (costOf(user.password) > config.bcryptCost()) {
            rehash(user, request);
        }
        JpaIdentityProviderUtil.addRoles(identity, user.role);
        return identity.build();
    }

    /** The check an unknown name costs, made too for a wrong password of an account hashed more cheaply. */
    private void padToTheConfiguredCost(UsernamePasswordAuthenticationRequest request) {
        try {
            JpaIdentityProviderUtil.checkPassword(JpaIdentityProviderUtil.getMcfPassword(dummyHash), request);
        } catch (AuthenticationFailedException expected) {
            // Nobody's password: the check is only for its time.
        }
    }

    /** Hashes an account's right password again at the configured cost, so that its wrong ones cost what everyone's do; best effort. */
    private void rehash(User user, UsernamePasswordAuthenticationRequest request) {
        try {
            accounts.rehash(user.name, user.password, new String(request.getPassword().getPassword()));
        } catch (RuntimeException e) {
            LOG.warnf("The password of %s stays at its old bcrypt cost for now: %s", user.name, e.toString());
        }
    }

    /** The cost of a bcrypt hash in Modular Crypt Format; 0 for anything else. */
    static int costOf(String hash) {
        try {
            return Integer.parseInt(hash.substring(COST_AT, COST_AT + 2));
        } catch (RuntimeException notBcrypt) {
            return 0;
        }
    }
}
