package io.orderflow.shared.http;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.orderflow.shared.problem.Problem;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Answers a POST that carries no credentials at all, to an address that needs them, from its headers,
 * before a byte of its body is read: 401 asking for Basic credentials, or for a form the sign-in page.
 * A client that announces a large body and then sends it slowly, or never, holds nothing but its
 * connection, which closes. The public addresses (the sign-in form, the provider's notifications, the
 * sandbox issuer's page) take none; every other endpoint needs a caller.
 */
@ApplicationScoped
class CredentialsBeforeBody {

    /** The POST addresses whose endpoints permit anyone (CredentialsBeforeBodyTest checks them against the resources). */
    static final List<String> PUBLIC = List.of("/j_security_check", "/payments/provider-events", "/sandbox/payments/authenticate/");
    private static final String FORM = "application/x-www-form-urlencoded";

    private final RequestBodies bodies;
    private final String sessionCookie;
    private final String loginPage;

    CredentialsBeforeBody(RequestBodies bodies, @ConfigProperty(name = "quarkus.http.auth.form.cookie-name") String sessionCookie,
            @ConfigProperty(name = "quarkus.http.auth.form.login-page") String loginPage) {
        this.bodies = bodies;
        this.sessionCookie = sessionCookie;
        this.loginPage = loginPage;
    }

    void register(@Observes Router router) {
        router.route(HttpMethod.POST, "/*").order(RequestBodies.BEFORE_READING).handler(this::check);
    }

    private void check(RoutingContext context) {
        if (isPublic(context.normalizedPath()) || context.request().getHeader(HttpHeaders.AUTHORIZATION) != null
                || context.request().getCookie(sessionCookie) != null) {
            context.next();
        } else if (RequestBodies.hasType(context, FORM)) {
            context.response().setStatusCode(302).putHeader(HttpHeaders.LOCATION, loginPage).putHeader(HttpHeaders.CONNECTION, "close").end();
        } else {
            bodies.refuse(context, Problem.signInRequired(), "WWW-Authenticate", Problem.BASIC_CHALLENGE);
        }
    }

    static boolean isPublic(String path) {
        return PUBLIC.stream().anyMatch(address -> address.endsWith("/") ? path.startsWith(address) : path.equals(address));
    }
}
