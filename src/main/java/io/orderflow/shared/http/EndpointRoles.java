package io.orderflow.shared.http;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;

import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * The roles each endpoint that takes a body (POST, PUT) allows, read once from the resources' own annotations
 * ({@code @RolesAllowed} on the method, else on its class), so that a caller whose role no such endpoint at an
 * address allows is refused before its body is read ({@link CredentialsBeforeBody}). The endpoints still check for
 * themselves; an address this does not recognise is left to them.
 */
@ApplicationScoped
class EndpointRoles {

    private static final Pattern PARAMETER = Pattern.compile("\\{\\s*\\w[\\w.-]*\\s*(?::\\s*((?:[^{}]|\\{[^{}]*})+))?}");

    /** An endpoint's method and address (as a pattern), and the roles it allows (none: any caller). */
    record Endpoint(String method, Pattern address, Set<String> roles) {

        boolean admits(SecurityIdentity caller) {
            return roles.isEmpty() || roles.stream().anyMatch(caller::hasRole);
        }
    }

    private final List<Endpoint> endpoints;

    EndpointRoles(BeanManager beans) {
        List<Endpoint> found = new ArrayList<>();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Path root = bean.getBeanClass().getAnnotation(Path.class);
            for (Method method : root == null ? new Method[0] : bean.getBeanClass().getDeclaredMethods()) {
                String verb = method.isAnnotationPresent(POST.class) ? HttpMethod.POST : method.isAnnotationPresent(PUT.class) ? HttpMethod.PUT : null;
                if (verb != null) {
                    Path path = method.getAnnotation(Path.class);
                    found.add(new Endpoint(verb, address(root.value() + "/" + (path == null ? "" : path.value())), roles(method, bean.getBeanClass())));
                }
            }
        }
        this.endpoints = List.copyOf(found);
    }

    /** Whether an endpoint for this method at this address would take a body from this caller, or none is known here. */
    boolean admit(String method, String path, SecurityIdentity caller) {
        List<Endpoint> there = endpoints.stream()
                .filter(endpoint -> endpoint.method().equals(method) && endpoint.address().matcher(path).matches()).toList();
        return there.isEmpty() || there.stream().anyMatch(endpoint -> endpoint.admits(caller));
    }

    /** A JAX-RS path template ({@code /orders/{id}/pay}, {@code {sku: [A-Z]+}}) as a pattern of the paths it matches. */
    static Pattern address(String template) {
        String normalised = ("/" + template).replaceAll("/+", "/").replaceAll("(.)/$", "$1");
        StringBuilder regex = new StringBuilder();
        Matcher parameter = PARAMETER.matcher(normalised);
        int last = 0;
        while (parameter.find()) {
            regex.append(Pattern.quote(normalised.substring(last, parameter.start())));
            regex.append(parameter.group(1) == null ? "[^/]+" : "(?:" + parameter.group(1).trim() + ")");
            last = parameter.end();
        }
        regex.append(Pattern.quote(normalised.substring(last)));
        return Pattern.compile(regex.toString());
    }

    private static Set<String> roles(Method method, AnnotatedElement resource) {
        RolesAllowed allowed = method.getAnnotation(RolesAllowed.class);
        if (allowed == null && !method.isAnnotationPresent(PermitAll.class)
                && !method.isAnnotationPresent(Authenticated.class)) {
            allowed = resource.getAnnotation(RolesAllowed.class);
        }
        return allowed == null ? Set.of() : Set.of(allowed.value());
    }
}
