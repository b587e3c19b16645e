package io.orderflow.web;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.orderflow.shared.http.RequestBodies;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.vertx.ext.web.RoutingContext;

/**
 * The CSRF check of the pages' form posts, before their endpoints run: the pages take nothing but
 * their own forms, each carrying the token of the session ({@link CsrfTokens}) and not sent from
 * another site ({@link CrossSite}); any other post to them is refused with a page that says to
 * reload the form, and nothing is done. The API takes JSON or no body and carries no token; it
 * refuses a Content-Type it cannot read with a problem detail.
 */
public class CsrfCheck {

    private static final Pattern ORDER_ACTION = Pattern.compile("(/(?:checkout|console)/orders/[^/]+)/[^/]+");
    /** A form of another console page ({@code /console/users/bob/disable}): back to that page ({@code /console/users}). */
    private static final Pattern CONSOLE_FORM = Pattern.compile("(/console/[^/]+)(?:/.*)?");

    private final Pages pages;
    private final CsrfTokens tokens;
    private final CrossSite crossSite;

    public CsrfCheck(Pages pages, CsrfTokens tokens, CrossSite crossSite) {
        this.pages = pages;
        this.tokens = tokens;
        this.crossSite = crossSite;
    }

    @ServerRequestFilter(priority = Priorities.HEADER_DECORATOR)
    public Response check(ContainerRequestContext request, SimpleResourceInfo resource, RoutingContext routing) {
        if (resource == null || HttpMethod.GET.equals(request.getMethod()) || HttpMethod.HEAD.equals(request.getMethod())) {
            return null;
        }
        boolean page = resource.getResourceClass().getPackageName().equals(CsrfCheck.class.getPackageName());
        MediaType type = contentType(request, page);
        if (!page) {
            return null;
        }
        boolean form = type != null && type.isCompatible(MediaType.APPLICATION_FORM_URLENCODED_TYPE);
        if (form && !crossSite.isCrossSite(routing.request()) && tokens.matchesForm(routing, sentToken(routing))) {
            return null;
        }
        return refused(pages, routing);
    }

    /** The refusal of a form post: a page leading back to the form's page. */
    static Response refused(Pages pages, RoutingContext routing) {
        return Response.status(403).type(Pages.HTML).header(HttpHeaders.CACHE_CONTROL, "no-store")
                .entity(html(pages, formPage(routing.normalizedPath()))).build();
    }

    /** The request's type; one the API cannot read is refused, one a page cannot read is no form. */
    private static MediaType contentType(ContainerRequestContext request, boolean page) {
        String header = request.getHeaderString(HttpHeaders.CONTENT_TYPE);
        try {
            return header == null ? null : MediaType.valueOf(header);
        } catch (IllegalArgumentException unreadable) {
            if (!page) {
                throw new ProblemException(Problem.of(ProblemCode.UNSUPPORTED_MEDIA_TYPE, "The Content-Type header cannot be read."));
            }
            // The refusal's answer would read it too.
            request.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
            return null;
        }
    }

    /** The token field of the form as read by {@link RequestBodies}; none unless it is there exactly once. */
    private static String sentToken(RoutingContext routing) {
        String body = new String(RequestBodies.of(routing), StandardCharsets.UTF_8);
        List<String> sent = new QueryStringDecoder(body, StandardCharsets.UTF_8, false).parameters().get(CsrfTokens.NAME);
        return sent != null && sent.size() == 1 ? sent.get(0) : null;
    }

    /** The refusal page, leading back to the page whose form was refused. */
    static String html(Pages pages, String back) {
        return pages.render("refused", Map.of("back", back));
    }

    /** The page a posted form came from: the order's page for its actions, a console page for its forms, else the checkout. */
    private static String formPage(String path) {
        var action = ORDER_ACTION.matcher(path);
        if (action.matches()) {
            return action.group(1);
        }
        var console = CONSOLE_FORM.matcher(path);
        return console.matches() ? console.group(1) : "/checkout";
    }
}
