package io.orderflow.user;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.jboss.logging.Logger;

/**
 * A user's row as signing in reads it: read-only, in a session of its own, outside any transaction. A user store that
 * cannot answer (PostgreSQL restarting or failing over) is {@link UserStoreUnavailableException} (503), never a wrong
 * credential (401) that throttling would count against the user.
 */
@ApplicationScoped
class UserRows {

    private static final Logger LOG = Logger.getLogger(UserRows.class);

    private final SessionFactory sessions;

    UserRows(SessionFactory sessions) {
        this.sessions = sessions;
    }

    /** The user of that name, disabled or not; null when there is none. */
    User find(String name) {
        try (Session session = sessions.openSession()) {
            session.setDefaultReadOnly(true);
            return session.find(User.class, name);
        } catch (PersistenceException e) {
            LOG.warnf("A sign-in not checked: the user store failed: %s", e.toString());
            throw new UserStoreUnavailableException();
        }
    }
}
