package io.orderflow.web;

import java.net.URI;
import java.security.Principal;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import io.quarkus.vertx.http.runtime.security.FormAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;
import io.vertx.ext.web.RoutingContext;

/**
 * The pages take a session cookie only together with the csrf-token cookie its sign-in set, signed for
 * the same principal, not signed out and not past its lifetime ({@link CsrfTokens}). Quarkus's session
 * cookie alone is an encrypted name and expiry: an old copy of it still decrypts after sign-out, and it
 * names no session. Otherwise both cookies are cleared and nothing is done: a page answers 303 to the
 * sign-in form, a form post the refusal page. Runs before the CSRF check and any endpoint.
 */
public class SessionCheck {

    private final CsrfTokens tokens;
    private final EndedSessions ended;
    private final Pages pages;
    private final String loginPage;

    public SessionCheck(CsrfTokens tokens, EndedSessions ended, Pages pages,
            @ConfigProperty(name = "quarkus.http.auth.form.login-page") String loginPage) {
        this.tokens = tokens;
        this.ended = ended;
        this.pages = pages;
        this.loginPage = loginPage;
    }

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION)
    public Response check(ContainerRequestContext request, SimpleResourceInfo resource, RoutingContext routing) {
        if (resource == null || !resource.getResourceClass().isAnnotationPresent(FormAuthentication.class)) {
            return null;
        }
        Principal principal = request.getSecurityContext().getUserPrincipal();
        if (principal == null) {
            return null;
        }
        CsrfTokens.Session session = tokens.sessionOf(routing, principal.getName());
        if (session != null && !ended.hasEnded(session)) {
            routing.put(CsrfTokens.SESSION, session);
            return null;
        }
        FormAuthenticationMechanism.logout(routing);
        CsrfTokens.clear(routing);
        if (HttpMethod.GET.equals(request.getMethod()) || HttpMethod.HEAD.equals(request.getMethod())) {
            return Response.seeOther(URI.create(loginPage)).header(HttpHeaders.CACHE_CONTROL, "no-store").build();
        }
        return CsrfCheck.refused(pages, routing);
    }
}
