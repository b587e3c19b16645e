package io.orderflow.web;

import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;

/**
 * The web forms' CSRF tokens, signed by the service ({@link FormSigning}) and bound to what the
 * browser holds, so that a cookie planted by a sibling subdomain or a man in the middle is of no use
 * without the service's key:
 * <ul>
 * <li>Before sign-in the csrf-token cookie holds a random value, drawn anew for every sign-in page
 * (never one the browser brings, which another site could have planted and learnt the signature of),
 * and the sign-in form carries its signature ({@code {csrf.signInToken}}).</li>
 * <li>Signing in replaces it by the session's cookie: a fresh random session id, the instant of
 * sign-in and the signature of both with the principal. A session cookie authenticates a page only
 * with this cookie signed for its principal, not ended by sign-out ({@link EndedSessions}) and not
 * older than {@code orders.web.session-lifetime} ({@link SessionCheck}); the forms of its pages carry
 * the signature of the principal and the session id ({@code {csrf.token}}).</li>
 * </ul>
 * One token per session, not per page, so a double click, a second tab and the back button all post
 * a valid token. Over HTTPS the cookie is {@code __Host-csrf-token}: a browser takes that name only from
 * this host, Secure and for the whole site, so no sibling subdomain can set it.
 */
@ApplicationScoped
class CsrfTokens {

    public static final String NAME = "csrf-token";
    /** The cookie's name over HTTPS. */
    static final String HOST_ONLY_NAME = "__Host-" + NAME;
    /** The checked {@link Session} of a request, put there by {@link SessionCheck}. */
    static final String SESSION = CsrfTokens.class.getName() + ".session";
    private static final Pattern PRE_SESSION = Pattern.compile("[A-Za-z0-9_-]{22}");
    private static final Pattern SIGNED_SESSION = Pattern.compile("([A-Za-z0-9_-]{22})\\.([0-9]{1,12})\\.([A-Za-z0-9_-]{43})");
    private static final Duration PRE_SESSION_LIFETIME = Duration.ofHours(2);
    private static final String DRAWN = CsrfTokens.class.getName() + ".drawn";

    /** A signed-in browser's session: its principal, its id and when it signed in. */
    record Session(String principal, String id, Instant started) {
    }

    private final CurrentVertxRequest request;
    private final FormSigning signing;
    private final Duration lifetime;

    public CsrfTokens(CurrentVertxRequest request, FormSigning signing, WebConfig config) {
        this.request = request;
        this.signing = signing;
        this.lifetime = config.sessionLifetime();
    }

    /** The form field (and, for the sign-in form, the query parameter) that carries the token. */
    public String getParameterName() {
        return NAME;
    }

    /** Whether the page is shown to a signed-in session (which then offers to sign out); the sign-in route's pages have none. */
    public boolean isSignedIn() {
        return Arc.container().requestContext().isActive() && request.getCurrent().get(SESSION) != null;
    }

    /** The token of the forms of a signed-in page. */
    public String getToken() {
        Session session = request.getCurrent().get(SESSION);
        if (session == null) {
            throw new IllegalStateException("Only the pages of a signed-in session carry forms besides the sign-in form");
        }
        return formToken(session);
    }

    /** The sign-in form's token: the signature of a csrf-token cookie drawn for this page. */
    public String getSignInToken() {
        return signInToken(preSession(request.getCurrent()));
    }

    /** Whether the token a form was posted with is the one of the request's checked session. */
    boolean matchesForm(RoutingContext context, String sent) {
        Session session = context.get(SESSION);
        return session != null && FormSigning.same(formToken(session), sent);
    }

    /** Whether the token the sign-in form was posted with is the signature of the request's csrf-token cookie. */
    boolean matchesSignIn(RoutingContext context, String sent) {
        String held = cookieValue(context);
        return held != null && PRE_SESSION.matcher(held).matches() && FormSigning.same(signInToken(held), sent);
    }

    /** Starts a session for the principal who just signed in: a new id, in a cookie signed for that principal. */
    void startSession(RoutingContext context, String principal) {
        String id = signing.draw();
        String started = Long.toString(Instant.now().getEpochSecond());
        setCookie(context, id + "." + started + "." + signing.sign("session", principal, id, started), CookieSameSite.STRICT, lifetime);
    }

    /** The session of the request's csrf-token cookie if it was signed for this principal and has not outlived its lifetime; else null. */
    Session sessionOf(RoutingContext context, String principal) {
        String held = cookieValue(context);
        Matcher session = held == null ? null : SIGNED_SESSION.matcher(held);
        if (session == null || !session.matches()
                || !FormSigning.same(signing.sign("session", principal, session.group(1), session.group(2)), session.group(3))) {
            return null;
        }
        Instant started = Instant.ofEpochSecond(Long.parseLong(session.group(2)));
        return Instant.now().isBefore(started.plus(lifetime)) ? new Session(principal, session.group(1), started) : null;
    }

    /** When the session's cookie stops counting anyway. */
    Instant endOf(Session session) {
        return session.started().plus(lifetime);
    }

    /** Forgets the browser's csrf-token cookie. */
    static void clear(RoutingContext context) {
        context.response().addCookie(Cookie.cookie(cookieName(context), "").setPath("/").setMaxAge(0).setSecure(isHttps(context)));
    }

    private String formToken(Session session) {
        return signing.sign("form", session.principal(), session.id());
    }

    private String signInToken(String held) {
        return signing.sign("sign-in", held);
    }

    /** The value the sign-in form is bound to: drawn for this page (once, however often the page asks) and set as the csrf-token cookie. */
    private String preSession(RoutingContext context) {
        String drawn = context.get(DRAWN);
        if (drawn == null) {
            drawn = signing.draw();
            context.put(DRAWN, drawn);
            setCookie(context, drawn, CookieSameSite.LAX, PRE_SESSION_LIFETIME);
        }
        return drawn;
    }

    private static void setCookie(RoutingContext context, String value, CookieSameSite sameSite, Duration lifetime) {
        context.response().addCookie(Cookie.cookie(cookieName(context), value).setPath("/").setHttpOnly(true).setSameSite(sameSite)
                .setMaxAge(lifetime.toSeconds()).setSecure(isHttps(context)));
    }

    private static String cookieName(RoutingContext context) {
        return isHttps(context) ? HOST_ONLY_NAME : NAME;
    }

    private static boolean isHttps(RoutingContext context) {
        return "https".equals(context.request().scheme());
    }

    private static String cookieValue(RoutingContext context) {
        Cookie cookie = context.request().getCookie(cookieName(context));
        return cookie == null ? null : cookie.getValue();
    }
}
