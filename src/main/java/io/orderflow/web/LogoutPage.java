package io.orderflow.web;

import java.net.URI;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;

import io.quarkus.security.Authenticated;
import io.quarkus.vertx.http.runtime.security.FormAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;
import io.vertx.ext.web.RoutingContext;

/**
 * Sign-out, the form every signed-in page carries (CSRF-checked like the others): the session ends on
 * every instance ({@link EndedSessions}), so a copy of its cookies opens nothing any more, and the
 * browser is told to forget them.
 */
@Path(LogoutPage.PATH)
@FormAuthentication
@Authenticated
public class LogoutPage {

    static final String PATH = "/logout";

    private final EndedSessions ended;
    private final CsrfTokens tokens;
    private final String loginPage;

    public LogoutPage(EndedSessions ended, CsrfTokens tokens, @ConfigProperty(name = "quarkus.http.auth.form.login-page") String loginPage) {
        this.ended = ended;
        this.tokens = tokens;
        this.loginPage = loginPage;
    }

    @POST
    @Operation(hidden = true)
    public Response signOut(RoutingContext routing) {
        CsrfTokens.Session session = routing.get(CsrfTokens.SESSION);
        ended.end(session, tokens.endOf(session));
        FormAuthenticationMechanism.logout(routing);
        CsrfTokens.clear(routing);
        return Response.seeOther(URI.create(loginPage + "?" + LoginPage.SIGNED_OUT + "=true")).header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }
}
