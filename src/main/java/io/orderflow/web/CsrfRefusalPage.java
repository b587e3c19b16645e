package io.orderflow.web;

import java.lang.annotation.Annotation;
import java.util.Map;
import java.util.regex.Pattern;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import io.quarkus.csrf.reactive.runtime.CsrfTokenParameterProvider;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;

/**
 * A web page's request that quarkus-rest-csrf refused (a form without the token of the csrf-token
 * cookie, or a cookie that is no token) is answered with a page that says what to do instead of
 * the extension's empty 400. Every 400 the pages give themselves has a body, so an empty one is the
 * extension's. A refused GET can only be a broken cookie, which would refuse every page until it
 * expires: it is dropped so that the reload draws a new one. A refused post leaves the cookie
 * alone, so that a forged post cannot spoil the forms the user has open.
 */
public class CsrfRefusalPage {

    private static final Pattern ORDER_ACTION = Pattern.compile("(/checkout/orders/[^/]+)/[^/]+");

    private final Pages pages;
    private final CsrfTokenParameterProvider csrf;

    public CsrfRefusalPage(Pages pages, CsrfTokenParameterProvider csrf) {
        this.pages = pages;
        this.csrf = csrf;
    }

    @ServerResponseFilter
    public void explain(ContainerRequestContext request, ContainerResponseContext response, SimpleResourceInfo resource, RoutingContext routing) {
        if (response.getStatus() != 400 || response.hasEntity() || resource == null
                || !resource.getResourceClass().getPackageName().equals(CsrfRefusalPage.class.getPackageName())) {
            return;
        }
        String path = routing.normalizedPath();
        boolean post = !HttpMethod.GET.equals(request.getMethod()) && !HttpMethod.HEAD.equals(request.getMethod());
        if (!post && routing.request().getCookie(csrf.getCookieName()) != null) {
            routing.response().addCookie(Cookie.cookie(csrf.getCookieName(), "").setPath("/").setMaxAge(0));
        }
        response.setStatus(403);
        response.getHeaders().putSingle("Cache-Control", "no-store");
        response.setEntity(html(pages, post ? formPage(path) : path), new Annotation[0], Pages.HTML);
    }

    /** The refusal page, leading back to the page whose form was refused. */
    static String html(Pages pages, String back) {
        return pages.render("refused", Map.of("back", back));
    }

    /** The page a posted form came from: the order's page for its actions, else the checkout. */
    private static String formPage(String path) {
        var action = ORDER_ACTION.matcher(path);
        return action.matches() ? action.group(1) : "/checkout";
    }
}
