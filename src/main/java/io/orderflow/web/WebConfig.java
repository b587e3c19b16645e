package io.orderflow.web;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The web pages' sessions and which sites may post to the service from a browser. */
@ConfigMapping(prefix = "orders.web")
public interface WebConfig {

    /**
     * Origins besides the service's own (scheme://host[:port]) whose pages may make a browser post to
     * the API or the pages, e.g. a shop front served from another host. The service's own origin is
     * the address the request was sent to, as Quarkus sees it: behind a proxy that rewrites Host, list
     * the public origin here or let Quarkus trust the proxy's X-Forwarded-Host.
     */
    Optional<List<String>> allowedOrigins();

    /** The shop's time zone: the pages show times in it until the browser has told its own. */
    @WithDefault("UTC")
    ZoneId timeZone();

    /** How long a web session lasts at most after sign-in, however active it is. */
    @WithDefault("12H")
    Duration sessionLifetime();
}
