package io.orderflow.web;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;

/**
 * Tells whether a browser says a request comes from another site: {@code Sec-Fetch-Site} is
 * {@code cross-site} or {@code same-site} (same-site is another origin, e.g. a sibling subdomain),
 * or {@code Origin} is neither the service's own origin nor one of {@code orders.web.allowed-origins}.
 * The own origin is the scheme and authority the request was sent to as Quarkus reports them, so it
 * follows X-Forwarded-Proto and X-Forwarded-Host only where {@code quarkus.http.proxy.*} trusts them;
 * a browser cannot set Host for another site, so comparing with it is safe.
 */
@ApplicationScoped
class CrossSite {

    private static final String FETCH_SITE = "Sec-Fetch-Site";
    private static final String ORIGIN = "Origin";

    private final Set<String> allowed;

    public CrossSite(WebConfig config) {
        this.allowed = config.allowedOrigins().orElse(List.of()).stream()
                .map(CrossSite::normalized).filter(Objects::nonNull).collect(Collectors.toUnmodifiableSet());
    }

    public boolean isCrossSite(HttpServerRequest request) {
        String origin = request.getHeader(ORIGIN);
        String normalized = origin == null ? null : normalized(origin);
        boolean listed = normalized != null && allowed.contains(normalized);
        String site = request.getHeader(FETCH_SITE);
        if (site != null && !listed && (site.equalsIgnoreCase("cross-site") || site.equalsIgnoreCase("same-site"))) {
            return true;
        }
        return origin != null && !listed && (normalized == null || !normalized.equals(own(request)));
    }

    /** scheme://host:port of the request as Quarkus sees it; null when it names no host. */
    private static String own(HttpServerRequest request) {
        HostAndPort authority = request.authority();
        if (authority == null || request.scheme() == null) {
            return null;
        }
        return normalized(request.scheme() + "://" + authority.host() + (authority.port() < 0 ? "" : ":" + authority.port()));
    }

    /** An origin with its default port spelled out and in lower case; null for one that is none ("null", junk). */
    static String normalized(String origin) {
        try {
            URI uri = new URI(origin.trim());
            String scheme = uri.getScheme();
            String host = uri.getHost();
            if (scheme == null || host == null || !(uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))) {
                return null;
            }
            scheme = scheme.toLowerCase(Locale.ROOT);
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -1;
            return scheme + "://" + host.toLowerCase(Locale.ROOT) + ":" + port;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
