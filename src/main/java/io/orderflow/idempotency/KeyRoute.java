package io.orderflow.idempotency;

import java.util.Locale;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ResourceInfo;

/**
 * The path an Idempotency-Key is scoped by: the template of the route the request matched, its parameters
 * in canonical form. The resources read an id however it is spelt ({@code UUID.fromString}, percent-decoded,
 * with or without a trailing slash), so every spelling of one id is one scope; a key scoped by the raw path
 * would run once per spelling. The ordinary spelling (a lower-case id) gives the raw path, so keys kept
 * before stay found.
 */
final class KeyRoute {

    // {name} or {name: regex}; the API's templates hold no nested braces.
    private static final Pattern PARAMETER = Pattern.compile("\\{\\s*([^:}\\s]+)\\s*(?::[^}]*)?}");

    private KeyRoute() {
    }

    /** The canonical path of a request that matched {@code resource}, given its decoded path parameters by name. */
    static String path(ResourceInfo resource, UnaryOperator<String> parameter) {
        Matcher parameters = PARAMETER.matcher(template(resource));
        StringBuilder path = new StringBuilder();
        while (parameters.find()) {
            parameters.appendReplacement(path, Matcher.quoteReplacement(canonical(parameter.apply(parameters.group(1)))));
        }
        parameters.appendTail(path);
        return path.toString();
    }

    /** The matched route's template, {@code /orders/{id}/pay}: one leading slash, none at the end. */
    static String template(ResourceInfo resource) {
        StringBuilder template = new StringBuilder();
        for (Path part : new Path[] { resource.getResourceClass().getAnnotation(Path.class), resource.getResourceMethod().getAnnotation(Path.class) }) {
            String segments = part == null ? "" : part.value().replaceAll("^/+|/+$", "");
            if (!segments.isEmpty()) {
                template.append('/').append(segments);
            }
        }
        return template.length() == 0 ? "/" : template.toString();
    }

    /**
     * A UUID in its one canonical spelling, as the resources read it; any other value as sent (decoded), but for
     * control characters and {@code %}, written percent-encoded: PostgreSQL keeps no NUL in text, and a key's
     * scope must be storable whatever a client puts in a path.
     */
    static String canonical(String value) {
        if (value == null) {
            return "";
        }
        try {
            return UUID.fromString(value).toString();
        } catch (IllegalArgumentException notAUuid) {
            StringBuilder storable = new StringBuilder(value.length());
            value.chars().forEach(c -> {
                if (c < 0x20 || c == 0x7F || c == '%') {
                    storable.append('%').append(String.format(Locale.ROOT, "%02X", c));
                } else {
                    storable.append((char) c);
                }
            });
            return storable.toString();
        }
    }
}
