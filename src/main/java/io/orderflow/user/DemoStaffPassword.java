package io.orderflow.user;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.orderflow.shared.security.Caller;
import io.orderflow.shared.security.DemoKeys;
import io.quarkus.runtime.StartupEvent;

/**
 * Gives the demo's staff user the password the demo generated (or the environment set, see
 * {@link DemoKeys}), so that the public {@code ops}/{@code ops} of dev and test never opens a demo on the
 * internet, where staff read every customer's orders, refund them and reprice the catalog. Only where the
 * demo users are seeded; once the stored hash matches, nothing is written.
 */
@ApplicationScoped
class DemoStaffPassword {

    static final String STAFF = "ops";
    private static final Logger LOG = Logger.getLogger(DemoStaffPassword.class);

    private final Optional<String> password;
    private final boolean demoUsers;
    private final UserAccounts accounts;

    DemoStaffPassword(@ConfigProperty(name = DemoKeys.STAFF_PASSWORD) Optional<String> password,
            @ConfigProperty(name = "quarkus.flyway.placeholders.demo_data") boolean demoUsers, UserAccounts accounts) {
        this.password = password;
        this.demoUsers = demoUsers;
        this.accounts = accounts;
    }

    void apply(@Observes StartupEvent start) {
        if (password.isPresent() && demoUsers && accounts.changePassword(STAFF, Caller.STAFF, password.get())) {
            LOG.infof("The demo's staff user %s signs in with the demo's own password now, no longer the public one", STAFF);
        }
    }
}
