package io.orderflow.web;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The sign-in form's CSRF check. Quarkus's form authentication takes the form's POST before any REST
 * filter could see it, and reads its body itself, so the login page puts the token of the
 * csrf-token cookie in the form's address and this route, ordered before authentication, compares
 * the two. Without a match nobody is signed in: a page says to reload the form. With a match the
 * cookie is dropped, so that the signed-in session draws a token of its own on its next page.
 */
@ApplicationScoped
public class SignInCsrfFilter {

    private final Pages pages;
    private final String signIn;

    public SignInCsrfFilter(Pages pages,
            @ConfigProperty(name = "quarkus.http.auth.form.post-location", defaultValue = "/j_security_check") String signIn) {
        this.pages = pages;
        this.signIn = signIn;
    }

    void register(@Observes Router router) {
        router.route(HttpMethod.POST, signIn).order(-SecurityHandlerPriorities.AUTHENTICATION - 1).handler(this::check);
    }

    private void check(RoutingContext context) {
        List<String> sent = context.queryParam(CsrfTokens.NAME);
        if (sent.size() != 1 || !CsrfTokens.matches(context, sent.get(0))) {
            // The form's body is not read: the connection closes, as the rest of it may still be on its way.
            context.response().setStatusCode(403)
                    .putHeader(HttpHeaders.CONTENT_TYPE, Pages.HTML.toString())
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(CsrfCheck.html(pages, "/login"));
            return;
        }
        CsrfTokens.drop(context);
        context.next();
    }
}
