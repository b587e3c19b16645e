package io.orderflow.web;

import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.ws.rs.container.ContainerRequestContext;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Refuses API calls another site makes a browser send. A browser that once signed in to the API keeps
 * its Basic credentials (and the pages' session cookie) and sends them with any form another site
 * posts, so a state-changing call carrying either is refused with 403 {@code cross-site-request}
 * when the browser marks it as cross-site ({@link CrossSite}) or when its type is one a form sends
 * without a CORS preflight: the API takes JSON or no body, never these. A bearer token is never
 * added by a browser itself, so calls with one are left alone. Runs before the Idempotency-Key
 * filter and any endpoint, so a refused call keeps nothing and does nothing. The pages' own form
 * posts are checked by {@link CsrfCheck}.
 */
public class CrossSiteApiCheck {

    private static final Set<String> STATE_CHANGING = Set.of("POST", "PUT", "PATCH", "DELETE");
    /** The types a form (or a no-cors fetch) sends without asking the server first; multipart is refused as a type by RequestBodies. */
    private static final Set<String> FORM_TYPES = Set.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data");
    private static final String BASIC = "basic ";
    // The sandbox issuer's authentication page stands for another site, a bank's: its address is its capability.
    private static final List<String> PAGE_POSTS = List.of(CheckoutPage.PATH, ConsoleOrderPage.CONSOLE, LogoutPage.PATH, "/sandbox/payments/authenticate");

    private final CrossSite crossSite;
    private final String sessionCookie;

    public CrossSiteApiCheck(CrossSite crossSite, @ConfigProperty(name = "quarkus.http.auth.form.cookie-name") String sessionCookie) {
        this.crossSite = crossSite;
        this.sessionCookie = sessionCookie;
    }

    /** Before the call is matched to an endpoint, so that one that takes only JSON answers a form 403 too, not 415. */
    @ServerRequestFilter(preMatching = true)
    public void check(ContainerRequestContext request, RoutingContext routing) {
        if (!STATE_CHANGING.contains(request.getMethod()) || isPage(routing.normalizedPath())
                || !(sentBasic(routing) || routing.request().getCookie(sessionCookie) != null)) {
            return;
        }
        if (crossSite.isCrossSite(routing.request())) {
            throw new ProblemException(Problem.of(ProblemCode.CROSS_SITE_REQUEST, "A browser sent this request for another site; nothing was done. "
                    + "API clients send JSON or no body; a page of another site needs a bearer token."));
        }
        if (isFormType(routing.request().getHeader(HttpHeaders.CONTENT_TYPE))) {
            // Most often a script: curl -d sends application/x-www-form-urlencoded unless told otherwise.
            throw new ProblemException(Problem.of(ProblemCode.CROSS_SITE_REQUEST, "This request was sent with a form or text Content-Type, "
                    + "as a form of another site would be; nothing was done. Send its body as JSON, with Content-Type: application/json "
                    + "(curl: -H 'Content-Type: application/json'), or send no body."));
        }
    }

    /** The pages' own forms post to these, checked by {@link CsrfCheck} and {@link LogoutPage}. */
    private static boolean isPage(String path) {
        return PAGE_POSTS.stream().anyMatch(page -> path.equals(page) || path.startsWith(page + "/"));
    }

    private static boolean sentBasic(RoutingContext routing) {
        String authorization = routing.request().getHeader(HttpHeaders.AUTHORIZATION);
        return authorization != null && authorization.regionMatches(true, 0, BASIC, 0, BASIC.length());
    }

    /** Whether the Content-Type's media type, whatever its parameters or spelling, is one a form sends. */
    private static boolean isFormType(String contentType) {
        return contentType != null && FORM_TYPES.contains(contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT));
    }
}
