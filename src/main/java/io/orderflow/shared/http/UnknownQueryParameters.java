package io.orderflow.shared.http;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ResourceInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.vertx.ext.web.RoutingContext;

/**
 * Refuses a query parameter that the matched endpoint does not take with 400 {@code validation-failed} naming it, as an
 * unknown field of a JSON body is: {@code GET /orders?stauts=paid} would otherwise be answered as if no filter had been
 * asked for. What an endpoint takes is its method's {@code @RestQuery} and {@code @QueryParam} parameters, read once per
 * method. The web pages (operations hidden from the API document) are left alone, since a browser reaches them with
 * whatever a link added; so is everything outside these resources ({@code /q/*}).
 */
public class UnknownQueryParameters {

    private final Map<Method, SortedSet<String>> taken = new ConcurrentHashMap<>();

    /** After authentication and role checks; before the Idempotency-Key filter claims a key for a request refused here. */
    @ServerRequestFilter(priority = Priorities.USER - 100)
    public void refuseUnknown(ResourceInfo resource, RoutingContext routing) {
        Method method = resource.getResourceMethod();
        // As sent: a broken escape in it would fail a parse into a URI.
        String query = routing.request().query();
        if (method == null || query == null || query.isEmpty() || isPage(method)) {
            return;
        }
        SortedSet<String> names = taken.computeIfAbsent(method, UnknownQueryParameters::queryParametersOf);
        for (String part : query.split("&")) {
            int equals = part.indexOf('=');
            String name = decoded(equals < 0 ? part : part.substring(0, equals));
            // "a=1&&b=2" or a lone "=" names no parameter: nothing to take or refuse.
            if (!name.isEmpty() && !names.contains(name)) {
                throw QueryParameters.invalid(name, names.isEmpty() ? "is not a query parameter: this call takes none"
                        : "is not a query parameter of this call, which takes " + String.join(", ", names));
            }
        }
    }

    private static boolean isPage(Method method) {
        Operation operation = method.getAnnotation(Operation.class);
        return operation != null && operation.hidden();
    }

    private static SortedSet<String> queryParametersOf(Method method) {
        SortedSet<String> names = new TreeSet<>();
        for (Parameter parameter : method.getParameters()) {
            RestQuery restQuery = parameter.getAnnotation(RestQuery.class);
            QueryParam queryParam = parameter.getAnnotation(QueryParam.class);
            if (restQuery != null) {
                names.add(restQuery.value().isEmpty() ? parameter.getName() : restQuery.value());
            } else if (queryParam != null) {
                names.add(queryParam.value());
            }
        }
        return Collections.unmodifiableSortedSet(names);
    }

    /** The name as the endpoint would read it; one whose escapes are broken is named as sent, and is no parameter of any call. */
    private static String decoded(String name) {
        try {
            return URLDecoder.decode(name, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException brokenEscape) {
            return name;
        }
    }
}
