package io.orderflow.web;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.orderflow.shared.security.SignInListener;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The sign-in form's CSRF check and the start of a session. Quarkus's form authentication takes the
 * form's POST before any REST filter could see it, and reads its body itself, so the login page puts
 * its token (the signature of the csrf-token cookie) in the form's address and this route, ordered
 * before authentication, checks it and that the form was not posted from another site. Without both
 * nobody is signed in: a page says to reload the form. When the password is right the answer also
 * sets the session's own csrf-token cookie ({@link CsrfTokens#startSession}), signed for the principal
 * that signed in, whom this class learns as a {@link SignInListener}.
 */
@ApplicationScoped
public class SignInCsrfFilter implements SignInListener {

    private static final String SIGNING_IN = SignInCsrfFilter.class.getName() + ".signing-in";
    private static final String SIGNED_IN = SignInCsrfFilter.class.getName() + ".signed-in";

    private final Pages pages;
    private final CsrfTokens tokens;
    private final CrossSite crossSite;
    private final String signIn;

    public SignInCsrfFilter(Pages pages, CsrfTokens tokens, CrossSite crossSite,
            @ConfigProperty(name = "quarkus.http.auth.form.post-location", defaultValue = "/j_security_check") String signIn) {
        this.pages = pages;
        this.tokens = tokens;
        this.crossSite = crossSite;
        this.signIn = signIn;
    }

    void register(@Observes Router router) {
        router.route(HttpMethod.POST, signIn).order(-SecurityHandlerPriorities.AUTHENTICATION - 1).handler(this::check);
    }

    private void check(RoutingContext context) {
        List<String> sent = context.queryParam(CsrfTokens.NAME);
        if (sent.size() != 1 || crossSite.isCrossSite(context.request()) || !tokens.matchesSignIn(context, sent.get(0))) {
            // The form's body is not read: the connection closes, as the rest of it may still be on its way.
            context.response().setStatusCode(403)
                    .putHeader(HttpHeaders.CONTENT_TYPE, Pages.HTML.toString())
                    .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(CsrfCheck.html(pages, "/login"));
            return;
        }
        context.put(SIGNING_IN, true);
        context.addHeadersEndHandler(ignored -> {
            String principal = context.get(SIGNED_IN);
            if (principal != null) {
                tokens.startSession(context, principal);
            }
        });
        context.next();
    }

    /** Notes who signed in with the form this route let through. */
    @Override
    public void signedIn(SecurityIdentity identity, RoutingContext routing) {
        if (routing.get(SIGNING_IN) != null) {
            routing.put(SIGNED_IN, identity.getPrincipal().getName());
        }
    }
}
