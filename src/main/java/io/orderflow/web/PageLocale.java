package io.orderflow.web;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.arc.Arc;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * The language and time zone of the page being rendered. The language is the one chosen with the pages' switch
 * (cookie {@value #LANGUAGE_COOKIE}), else the browser's first language the pages speak ({@code Accept-Language}),
 * else English. The time zone is the browser's (cookie {@value #ZONE_COOKIE}, which the pages' script sets),
 * else the shop's, {@code orders.web.time-zone}.
 */
@ApplicationScoped
public class PageLocale {

    static final String LANGUAGE_COOKIE = "lang";
    static final String ZONE_COOKIE = "tz";
    /** The languages of the pages, English first: the one shown when the browser asks for none of them. */
    static final List<Locale> LANGUAGES = List.of(Locale.ENGLISH, Locale.SIMPLIFIED_CHINESE);

    private final CurrentVertxRequest current;
    private final ZoneId shopZone;

    public PageLocale(CurrentVertxRequest current, WebConfig config) {
        this.current = current;
        this.shopZone = config.timeZone();
    }

    public Locale locale() {
        HttpServerRequest request = request();
        if (request == null) {
            return Locale.ENGLISH;
        }
        Cookie chosen = request.getCookie(LANGUAGE_COOKIE);
        if (chosen != null) {
            Locale language = language(chosen.getValue());
            if (language != null) {
                return language;
            }
        }
        return preferred(request.getHeader(HttpHeaders.ACCEPT_LANGUAGE));
    }

    public ZoneId zone() {
        HttpServerRequest request = request();
        Cookie browser = request == null ? null : request.getCookie(ZONE_COOKIE);
        if (browser != null) {
            try {
                return ZoneId.of(browser.getValue());
            } catch (DateTimeException notAZone) {
                // A cookie that names no zone is ignored, as if the browser had sent none.
            }
        }
        return shopZone;
    }

    /** Where the language switch returns to: the page shown, or the shop when it answers a form (which a GET would not repeat). */
    String returnPath() {
        HttpServerRequest request = request();
        return request != null && request.method() == HttpMethod.GET ? request.uri() : "/checkout";
    }

    /** The pages' language of a tag ({@code en}, {@code zh-CN}), or null when the pages do not speak it. */
    static Locale language(String tag) {
        return LANGUAGES.stream().filter(language -> language.toLanguageTag().equalsIgnoreCase(tag)).findFirst().orElse(null);
    }

    /**
     * The first language of an {@code Accept-Language} header, by its weights, that the pages speak: any Chinese
     * reads the Simplified pages, any English the English ones.
     */
    static Locale preferred(String acceptLanguage) {
        if (acceptLanguage == null || acceptLanguage.isBlank()) {
            return Locale.ENGLISH;
        }
        try {
            for (Locale.LanguageRange range : Locale.LanguageRange.parse(acceptLanguage)) {
                String language = range.getRange().split("-", 2)[0];
                for (Locale spoken : LANGUAGES) {
                    if (spoken.getLanguage().equals(language)) {
                        return spoken;
                    }
                }
            }
        } catch (IllegalArgumentException unreadable) {
            // A header that cannot be read asks for nothing in particular.
        }
        return Locale.ENGLISH;
    }

    private HttpServerRequest request() {
        return Arc.container().requestContext().isActive() && current.getCurrent() != null ? current.getCurrent().request() : null;
    }
}
