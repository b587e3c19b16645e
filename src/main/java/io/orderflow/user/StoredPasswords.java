package io.orderflow.user;

import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
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
 * provider (which still serves signed-in sessions), for two reasons:
 * <ul>
 * <li>An unknown name costs what a known one with a wrong password costs: its password is checked
 * against a dummy hash at the cost most stored hashes have, where quarkus-security-jpa hashes at
 * bcrypt's default cost (10), ten times the demo users' (4), which tells names apart.</li>
 * <li>A user store that cannot answer (PostgreSQL restarting or failing over) is
 * {@link UserStoreUnavailableException} (503), not a wrong password (401) that throttling would
 * count against the user.</li>
 * </ul>
 */
@ApplicationScoped
class StoredPasswords implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    private static final Logger LOG = Logger.getLogger(StoredPasswords.class);
    /** Where the cost sits in a bcrypt hash in Modular Crypt Format: {@code $2a$NN$...}. */
    private static final String COST_OF_HASHES = "select substring(password, 5, 2) from User group by 1 order by count(*) desc";

    private final SessionFactory sessions;
    private final UserConfig config;
    /** Made at the first unknown name, once: the users' costs change only as users are added. */
    private volatile String dummyHash;

    public StoredPasswords(SessionFactory sessions, UserConfig config) {
        this.sessions = sessions;
        this.config = config;
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
        User user;
        String hash;
        try (Session session = sessions.openSession()) {
            session.setDefaultReadOnly(true);
            user = session.find(User.class, request.getUsername());
            hash = user != null ? user.password : dummyHash(session);
        } catch (PersistenceException e) {
            LOG.warnf("Sign-in not checked: the user store failed: %s", e.toString());
            throw new UserStoreUnavailableException();
        }
        // The check quarkus-security-jpa makes: a wrong password of any shape is AuthenticationFailedException.
        QuarkusSecurityIdentity.Builder identity = JpaIdentityProviderUtil.checkPassword(JpaIdentityProviderUtil.getMcfPassword(hash), request);
        if (user == null) {
            throw new AuthenticationFailedException();
        }
        JpaIdentityProviderUtil.addRoles(identity, user.role);
        return identity.build();
    }

    private String dummyHash(Session session) {
        String made = dummyHash;
        if (made == null) {
            made = BcryptUtil.bcryptHash(UUID.randomUUID().toString(), costOfStoredHashes(session));
            dummyHash = made;
        }
        return made;
    }

    /** The cost most stored hashes have; the configured one while there are none. */
    private int costOfStoredHashes(Session session) {
        List<String> costs = session.createSelectionQuery(COST_OF_HASHES, String.class).setMaxResults(1).getResultList();
        try {
            int cost = costs.isEmpty() ? config.bcryptCost() : Integer.parseInt(costs.get(0));
            return cost >= 4 && cost <= 31 ? cost : config.bcryptCost();
        } catch (NumberFormatException e) {
            return config.bcryptCost();
        }
    }
}
