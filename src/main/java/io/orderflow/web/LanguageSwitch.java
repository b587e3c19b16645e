package io.orderflow.web;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.vertx.core.http.HttpServerRequest;

/**
 * The pages' language switch: {@code GET /language/zh-CN?back=/checkout} keeps the choice in a cookie for a year and
 * returns to the page it was chosen on. Only a path of this site is returned to, so the switch sends no one elsewhere.
 */
@Path("/language/{tag}")
@PermitAll
public class LanguageSwitch {

    /** A path of this site: one slash, then no second slash or backslash that a browser would read as another host. */
    private static final Pattern LOCAL_PATH = Pattern.compile("/(?![/\\\\])[-A-Za-z0-9._~!$&'()*+,;=:@/?%]*");
    private static final String HOME = CheckoutPage.PATH;
    private static final Duration KEPT = Duration.ofDays(365);

    @GET
    @Operation(hidden = true)
    public Response choose(@RestPath String tag, @RestQuery String back, @Context HttpServerRequest request) {
        Locale language = PageLocale.language(tag);
        Response.ResponseBuilder answer = Response.seeOther(returnTo(back));
        if (language != null) {
            answer.cookie(new NewCookie.Builder(PageLocale.LANGUAGE_COOKIE).value(language.toLanguageTag()).path("/")
                    .sameSite(NewCookie.SameSite.LAX).secure("https".equals(request.scheme())).maxAge((int) KEPT.toSeconds()).build());
        }
        return answer.build();
    }

    private static URI returnTo(String back) {
        if (back == null || !LOCAL_PATH.matcher(back).matches()) {
            return URI.create(HOME);
        }
        try {
            return URI.create(back);
        } catch (IllegalArgumentException malformed) {
            return URI.create(HOME);
        }
    }
}
