package io.orderflow.login;

import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.orderflow.shared.security.SignInOrder;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.security.spi.runtime.AuthenticationFailureEvent;
import io.quarkus.security.spi.runtime.AuthenticationSuccessEvent;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Runs before the identity provider that checks passwords (HTTP Basic and the sign-in form alike):
 * refuses a user name or address with too many recent failures, so a refusal costs no password hash
 * and the right password does not get in while refused; otherwise it answers "not mine" and the
 * next provider checks the password. Quarkus's authentication events then tell how it went.
 */
@ApplicationScoped
public class SignInThrottle implements IdentityProvider<UsernamePasswordAuthenticationRequest> {

    private static final String ATTEMPT = SignInAttempt.class.getName();

    private final SignInFailures failures;

    public SignInThrottle(SignInFailures failures) {
        this.failures = failures;
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
        return context.runBlocking(() -> {
            http.put(ATTEMPT, failures.admit(request.getUsername(), address(http)));
            return null;
        });
    }

    void failed(@Observes AuthenticationFailureEvent event) {
        SignInAttempt attempt = attempt(event.getEventProperties());
        if (attempt != null && !isRefusal(event.getAuthenticationFailure())) {
            failures.failed(attempt);
        }
    }

    void succeeded(@Observes AuthenticationSuccessEvent event) {
        SignInAttempt attempt = attempt(event.getEventProperties());
        if (attempt != null) {
            failures.succeeded(attempt);
        }
    }

    /** The attempt this provider admitted in the event's request; none for sessions and requests without a password. */
    private static SignInAttempt attempt(Map<String, Object> properties) {
        return properties.get(RoutingContext.class.getName()) instanceof RoutingContext http ? http.get(ATTEMPT) : null;
    }

    private static boolean isRefusal(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SignInRefusedException) {
                return true;
            }
        }
        return false;
    }

    /** The client's address as Quarkus reports it: the forwarded one only when quarkus.http.proxy.* trusts the proxy. */
    private static String address(RoutingContext http) {
        return http.request().remoteAddress() == null ? "unknown" : http.request().remoteAddress().hostAddress();
    }
}
