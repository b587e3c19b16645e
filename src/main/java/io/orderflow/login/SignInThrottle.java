package io.orderflow.login;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.SignInListener;
import io.orderflow.shared.security.SignInOrder;
import io.orderflow.user.VerifiedPasswords;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.spi.runtime.AuthenticationFailureEvent;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Runs before the identity providers that check passwords (HTTP Basic and the sign-in form alike),
 * for every sign-in that {@link KnownSignIns} did not take without asking Redis: counts the attempt
 * before its check, and refuses an address that has failed too often for this user (or too often
 * overall, and for this user before, or for too many names this second), so a refusal costs no
 * password hash and the right password does not get in from the guessing address while refused;
 * otherwise it answers "not mine", leaving the attempt (with any delay, see {@link SignInSlowDown})
 * for the next providers. {@link SignInListener} tells it of a success, Quarkus's failure event of a
 * failure; only a wrong password (or unknown name) keeps its count, any other outcome gives it back.
 */
@ApplicationScoped
class SignInThrottle implements IdentityProvider<UsernamePasswordAuthenticationRequest>, SignInListener {

    private static final String ATTEMPT = SignInAttempt.class.getName();

    private final SignInFailures failures;
    private final SignInClearances clearances;
    private final VerifiedPasswords passwords;

    public SignInThrottle(SignInFailures failures, SignInClearances clearances, VerifiedPasswords passwords) {
        this.failures = failures;
        this.clearances = clearances;
        this.passwords = passwords;
    }

    @Override
    public Class<UsernamePasswordAuthenticationRequest> getRequestType() {
        return UsernamePasswordAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return SignInOrder.THROTTLE;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(UsernamePasswordAuthenticationRequest request, AuthenticationRequestContext context) {
        RoutingContext http = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (http == null) {
            return Uni.createFrom().nullItem();
        }
        String address = address(http);
        return failures.admit(request.getUsername(), address).map(attempt -> {
            http.put(ATTEMPT, attempt);
            return (SecurityIdentity) null;
        }).onFailure(SignInThrottleUnavailableException.class).recoverWithUni(unavailable -> knownGood(request, address, unavailable));
    }

    /**
     * While Redis cannot be asked, a password verified lately from this very address (cleared before the
     * outage) is known good and signs in; anything else stays refused, so no guess is ever checked.
     */
    private Uni<SecurityIdentity> knownGood(UsernamePasswordAuthenticationRequest request, String address, Throwable unavailable) {
        SecurityIdentity known = clearances.wasCleared(request.getUsername(), address)
                ? passwords.known(request.getUsername(), request.getPassword().getPassword())
                : null;
        return known != null ? Uni.createFrom().item(known) : Uni.createFrom().failure(unavailable);
    }

    void failed(@Observes AuthenticationFailureEvent event) {
        SignInAttempt attempt = attempt(event.getEventProperties());
        if (attempt == null) {
            return;
        }
        if (isWrongPassword(event.getAuthenticationFailure())) {
            failures.failed(attempt);
        } else {
            failures.notChecked(attempt);
        }
    }

    /** A sign-in this provider admitted succeeded. */
    @Override
    public void signedIn(SecurityIdentity identity, RoutingContext http) {
        SignInAttempt attempt = attempt(http);
        if (attempt != null) {
            failures.succeeded(attempt);
        }
    }

    /** The attempt this provider admitted in the request; none for sessions and requests without a password. */
    static SignInAttempt attempt(RoutingContext http) {
        return http.get(ATTEMPT);
    }

    private static SignInAttempt attempt(Map<String, Object> properties) {
        return properties.get(RoutingContext.class.getName()) instanceof RoutingContext http ? attempt(http) : null;
    }

    /**
     * A password checked and found wrong (or a name no user has). Not a refusal, and not a user store
     * that could not answer: counting those would throttle every user after a database failover.
     */
    private static boolean isWrongPassword(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProblemException) {
                return false;
            }
            if (t instanceof AuthenticationFailedException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The client's address as Quarkus reports it: the forwarded one only when quarkus.http.proxy.*
     * trusts the proxy (see application.properties), else the connection's.
     */
    static String address(RoutingContext http) {
        return http.request().remoteAddress() == null ? "unknown" : http.request().remoteAddress().hostAddress();
    }
}
