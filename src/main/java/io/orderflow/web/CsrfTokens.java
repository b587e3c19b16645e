package io.orderflow.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;

/**
 * The web forms' CSRF tokens (double submit): a random token lives in the csrf-token cookie, which
 * only this site's pages can read back into their forms; a form post counts only if it carries the
 * cookie's token. One token per cookie, not per page, so a double click, a second tab and the back
 * button all post a valid token. Templates read it as {@code {csrf.parameterName}} and
 * {@code {csrf.token}}; a missing or malformed cookie is replaced by a fresh one.
 */
@ApplicationScoped
public class CsrfTokens {

    public static final String NAME = "csrf-token";
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{22}");
    private static final Duration LIFETIME = Duration.ofHours(2);
    private static final String DRAWN = CsrfTokens.class.getName() + ".drawn";

    private final SecureRandom random = new SecureRandom();
    private final CurrentVertxRequest request;

    public CsrfTokens(CurrentVertxRequest request) {
        this.request = request;
    }

    /** The form field (and, for the sign-in form, the query parameter) that carries the token. */
    public String getParameterName() {
        return NAME;
    }

    /** The current browser's token, drawn and set as its cookie if it has none. */
    public String getToken() {
        return tokenOf(request.getCurrent());
    }

    String tokenOf(RoutingContext context) {
        String held = cookieToken(context);
        if (held != null) {
            return held;
        }
        String drawn = context.get(DRAWN);
        if (drawn == null) {
            byte[] bytes = new byte[16];
            random.nextBytes(bytes);
            drawn = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            context.put(DRAWN, drawn);
            context.response().addCookie(Cookie.cookie(NAME, drawn).setPath("/").setHttpOnly(true)
                    .setSameSite(CookieSameSite.LAX).setMaxAge(LIFETIME.toSeconds()).setSecure("https".equals(context.request().scheme())));
        }
        return drawn;
    }

    /** Whether the token sent with a form is the one of the request's cookie. */
    static boolean matches(RoutingContext context, String sent) {
        String held = cookieToken(context);
        return held != null && sent != null && MessageDigest.isEqual(held.getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8));
    }

    /** Forgets the token, so that the next page draws a new one (after signing in). */
    static void drop(RoutingContext context) {
        context.response().addCookie(Cookie.cookie(NAME, "").setPath("/").setMaxAge(0));
    }

    private static String cookieToken(RoutingContext context) {
        Cookie cookie = context.request().getCookie(NAME);
        return cookie != null && TOKEN.matcher(cookie.getValue()).matches() ? cookie.getValue() : null;
    }
}
