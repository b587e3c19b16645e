package io.orderflow.web;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import io.orderflow.shared.http.RequestBodies;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.vertx.ext.web.RoutingContext;

/**
 * Sets what quarkus-rest-csrf checks, before it runs. It checks the form posts to every REST
 * endpoint and lets other types through: the pages take nothing but their forms, so any other post
 * to them is refused as a form that is not theirs (an empty 400, which {@link CsrfRefusalPage}
 * answers with its page); the API takes JSON or no body and carries no token, and some HTTP clients
 * label a POST without a body as a form, so such a call loses the label, which described nothing.
 * The check fails on a Content-Type it cannot parse: the API refuses one with a problem detail.
 */
public class CsrfScope {

    @ServerRequestFilter(priority = Priorities.HEADER_DECORATOR)
    public Response beforeTheCheck(ContainerRequestContext request, SimpleResourceInfo resource, RoutingContext routing) {
        String header = request.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (resource == null || HttpMethod.GET.equals(request.getMethod()) || HttpMethod.HEAD.equals(request.getMethod())) {
            return null;
        }
        boolean page = resource.getResourceClass().getPackageName().equals(CsrfScope.class.getPackageName());
        MediaType type = null;
        try {
            type = header == null ? null : MediaType.valueOf(header);
        } catch (IllegalArgumentException unreadable) {
            if (!page) {
                throw new ProblemException(Problem.of(415, "unsupported-media-type", "Unsupported media type", "The Content-Type header cannot be read."));
            }
            // The refusal's answer would read it too.
            request.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
        }
        boolean form = type != null && type.getType().equalsIgnoreCase("application") && type.getSubtype().equalsIgnoreCase("x-www-form-urlencoded");
        if (page && !form) {
            return Response.status(400).build();
        }
        if (!page && form && RequestBodies.of(routing).length == 0) {
            request.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
        }
        return null;
    }
}
