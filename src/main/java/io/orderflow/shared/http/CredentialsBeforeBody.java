package io.orderflow.shared.http;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.security.Caller;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.Context;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Decides who sends a POST or PUT to an address that needs a caller from its headers, before a byte of its
 * body is read. Without credentials it is answered at once: 401 asking for Basic credentials, or for a
 * form the sign-in page. With credentials the caller is authenticated here (the throttle and the
 * password check run now, once: the identity is kept for the endpoint); credentials that fail leave the
 * body unread, and the endpoint answers the failure as it answers any (401, 429 or 503) and closes the
 * connection. A client that announces a large body and then sends it slowly, or never, holds nothing
 * but its connection. The public addresses (the sign-in form, the provider's notifications, the
 * sandbox issuer's page) take none; every other endpoint needs a caller.
 */
@ApplicationScoped
class CredentialsBeforeBody {

    /** The POST addresses whose endpoints permit anyone (CredentialsBeforeBodyTest checks them against the resources). */
    static final List<String> PUBLIC = List.of("/j_security_check", "/payments/provider-events", "/sandbox/payments/authenticate/");
    private static final String FORM = "application/x-www-form-urlencoded";

    private final RequestBodies bodies;
    private final EndpointRoles roles;
    private final String sessionCookie;
    private final String loginPage;

    CredentialsBeforeBody(RequestBodies bodies, EndpointRoles roles, @ConfigProperty(name = "quarkus.http.auth.form.cookie-name") String sessionCookie,
            @ConfigProperty(name = "quarkus.http.auth.form.login-page") String loginPage) {
        this.bodies = bodies;
        this.roles = roles;
        this.sessionCookie = sessionCookie;
        this.loginPage = loginPage;
    }

    void register(@Observes Router router) {
        router.route("/*").method(HttpMethod.POST).method(HttpMethod.PUT).order(RequestBodies.BEFORE_READING).handler(this::check);
    }

    private void check(RoutingContext context) {
        if (isPublic(context.normalizedPath())) {
            context.next();
        } else if (context.request().getHeader(HttpHeaders.AUTHORIZATION) == null && context.request().getCookie(sessionCookie) == null) {
            refuseAnonymous(context);
        } else {
            context.request().pause();
            // An answer sent before the body was read (credentials that fail) ends the connection: the body may still come.
            context.addHeadersEndHandler(headers -> {
                if (!RequestBodies.wasRead(context)) {
                    context.response().putHeader(HttpHeaders.CONNECTION, "close");
                }
            });
            context.addBodyEndHandler(written -> bodies.closeUnlessRead(context));
            Context eventLoop = context.vertx().getOrCreateContext();
            QuarkusHttpUser.getSecurityIdentity(context, null).subscribe().with(
                    identity -> eventLoop.runOnContext(done -> {
                        if (identity == null || identity.isAnonymous()) {
                            // A session cookie that no longer opens a session (expired, or from another key).
                            refuseAnonymous(context);
                        } else if (identity.hasRole(Caller.METRICS) || !roles.admit(context.request().method().name(), context.normalizedPath(), identity)) {
                            bodies.refuse(context, Problem.forbidden());
                        } else {
                            context.next();
                        }
                    }),
                    // Quarkus REST's handler of authentication failures has the endpoint's exception mappers answer it
                    // (401, 429 or 503 with a problem detail); the body stays unread.
                    failure -> {
                    });
        }
    }

    private void refuseAnonymous(RoutingContext context) {
        if (RequestBodies.hasType(context, FORM)) {
            context.response().setStatusCode(302).putHeader(HttpHeaders.LOCATION, loginPage).putHeader(HttpHeaders.CONNECTION, "close").end();
        } else {
            bodies.refuse(context, Problem.signInRequired(), "WWW-Authenticate", Problem.BASIC_CHALLENGE);
        }
    }

    static boolean isPublic(String path) {
        return Addresses.listed(PUBLIC, path);
    }
}
