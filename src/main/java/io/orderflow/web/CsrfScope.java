package io.orderflow.web;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import io.orderflow.shared.http.RequestBodies;
import io.vertx.ext.web.RoutingContext;

/**
 * Keeps quarkus-rest-csrf, which checks a form post to any REST endpoint, to the web pages: the API
 * takes JSON or no body and carries no token. Some HTTP clients label a POST without a body as a
 * form; before the check, such a call to the API loses the label, which described nothing.
 */
public class CsrfScope {

    @ServerRequestFilter(priority = Priorities.HEADER_DECORATOR)
    public void unlabelBodilessApiCalls(ContainerRequestContext request, SimpleResourceInfo resource, RoutingContext routing) {
        if (resource != null && !resource.getResourceClass().getPackageName().equals(CsrfScope.class.getPackageName())
                && MediaType.APPLICATION_FORM_URLENCODED_TYPE.isCompatible(request.getMediaType()) && RequestBodies.of(routing).length == 0) {
            request.getHeaders().remove(HttpHeaders.CONTENT_TYPE);
        }
    }
}
