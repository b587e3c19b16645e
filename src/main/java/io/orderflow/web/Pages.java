package io.orderflow.web;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.orderflow.shared.security.Caller;
import io.quarkus.arc.Arc;
import io.quarkus.qute.Engine;
import io.quarkus.qute.EvalContext;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.NamespaceResolver;
import io.quarkus.qute.ReflectionValueResolver;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.qute.TemplateLocator;
import io.quarkus.qute.ValueResolver;
import io.quarkus.qute.Variant;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.RoutingContext;

/**
 * Renders the Qute templates under {@code src/main/resources/templates}, HTML-escaped, in the page's language
 * and time zone ({@link PageLocale}). The Qute engine is used as a library: the Quarkus extension needs a dev-mode
 * artifact this build cannot get, so its message bundles are stood in for by the {@code msg} namespace
 * ({@link PageText}): {@code {msg:checkout_title}}, {@code {msg:order_title(order.orderNumber)}}, and
 * {@code {msg:named('status', order.status.wireName)}} for the key {@code status_paid}, and
 * {@code {msg:amount(order.totalAmount, order.currency)}} for money as the language writes it ({@link PageText#amount}).
 * Templates write an instant for people as {@code {order.createdAt.readable}}: "30 Nov 2026, 10:05 UTC" or
 * "2026年11月30日 18:05 GMT+8", and a form's CSRF token as {@code {csrf.parameterName}} and {@code {csrf.token}}
 * (read only by pages with a form). {@code {admin}} says whether the signed-in user is an admin (the console's
 * navigation leads admins to the users page).
 */
@ApplicationScoped
public class Pages {

    private static final String ZONE = "zone";
    private static final Map<Locale, String> READABLE = Map.of(Locale.ENGLISH, "d MMM uuuu, HH:mm", Locale.SIMPLIFIED_CHINESE,
            "uuuu年M月d日 HH:mm");

    static final MediaType HTML = MediaType.TEXT_HTML_TYPE.withCharset("UTF-8");

    private final Engine engine = Engine.builder()
            .addDefaults()
            .addValueResolver(new ReflectionValueResolver())
            .addValueResolver(ValueResolver.builder().applyToBaseClass(Instant.class).applyToName("readable")
                    .resolveSync(context -> readable((Instant) context.getBase(), (Locale) context.getAttribute(TemplateInstance.LOCALE),
                            (ZoneId) context.getAttribute(ZONE)))
                    .build())
            .addNamespaceResolver(NamespaceResolver.builder("msg").resolve(Pages::message).build())
            .addResultMapper(new HtmlEscaper(List.of(Variant.TEXT_HTML)))
            .addLocator(Pages::locate)
            .removeStandaloneLines(true)
            .strictRendering(false)
            .build();

    private final CsrfTokens csrf;
    private final PageLocale locale;
    private final CurrentVertxRequest request;

    public Pages(CsrfTokens csrf, PageLocale locale, CurrentVertxRequest request) {
        this.csrf = csrf;
        this.locale = locale;
        this.request = request;
    }

    /** "30 Nov 2026, 10:05 UTC": the time in the zone, then the zone as an offset from UTC, which reads the same everywhere. */
    static String readable(Instant instant, Locale locale, ZoneId zone) {
        ZoneId shown = zone == null ? ZoneOffset.UTC : zone;
        String offset = shown.getRules().getOffset(instant).getTotalSeconds() == 0 ? "UTC"
                : DateTimeFormatter.ofPattern("O", Locale.ENGLISH).format(instant.atZone(shown));
        return DateTimeFormatter.ofPattern(READABLE.getOrDefault(locale, READABLE.get(Locale.ENGLISH)), locale).withZone(shown).format(instant)
                + " " + offset;
    }

    /** {@code {msg:key}}, {@code {msg:key(arg, ...)}} and {@code {msg:named('prefix', value)}} in the template's language. */
    private static CompletionStage<Object> message(EvalContext context) {
        Locale language = (Locale) context.getAttribute(TemplateInstance.LOCALE);
        List<CompletableFuture<Object>> arguments = context.getParams().stream()
                .map(param -> context.evaluate(param).toCompletableFuture()).toList();
        return CompletableFuture.allOf(arguments.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Object[] values = arguments.stream().map(CompletableFuture::join).toArray();
            if (context.getName().equals("named")) {
                return PageText.of(language, values[0] + "_" + values[1]);
            }
            if (context.getName().equals("amount")) {
                return PageText.amount(language, String.valueOf(values[0]), String.valueOf(values[1]));
            }
            return PageText.of(language, context.getName(), values);
        });
    }

    /**
     * A page with the given status, which no cache keeps ({@code no-store}): after sign-out, the back
     * button of a shared computer's browser shows none of the signed-in pages from its history.
     */
    public Response page(int status, String template, Map<String, Object> data) {
        return Response.status(status).type(HTML).header("Cache-Control", "no-store").entity(render(template, data)).build();
    }

    /**
     * The checkout's form, which only the user's own browser keeps, and revalidates before reuse: its history
     * shows it again as it was, so the back button brings back the very form (and one-time order token) that
     * was submitted, and resubmitting it lands on the same order instead of placing another. It shows the
     * catalog and the cart being filled, nothing of the customer's orders.
     */
    public Response checkoutForm(int status, Map<String, Object> data) {
        return Response.status(status).type(HTML).header("Cache-Control", "private, no-cache").entity(render("checkout", data)).build();
    }

    /** The template as HTML. */
    String render(String template, Map<String, Object> data) {
        Locale language = locale.locale();
        Locale other = PageLocale.LANGUAGES.stream().filter(spoken -> !spoken.equals(language)).findFirst().orElseThrow();
        var instance = engine.getTemplate(template).instance().data("csrf", csrf).data("lang", language.toLanguageTag())
                .data("otherLanguage", other.toLanguageTag()).data("switchLanguage", "/language/" + other.toLanguageTag() + "?back="
                        + URLEncoder.encode(locale.returnPath(), StandardCharsets.UTF_8))
                .data("admin", isAdmin()).setLocale(language).setAttribute(ZONE, locale.zone());
        data.forEach(instance::data);
        return instance.render();
    }

    /** Whether the request's user, as already authenticated (never authenticating it here, which may block), is an admin. */
    private boolean isAdmin() {
        RoutingContext current = Arc.container().requestContext().isActive() ? request.getCurrent() : null;
        return current != null && current.user() instanceof QuarkusHttpUser user && user.getSecurityIdentity().hasRole(Caller.ADMIN);
    }

    private static Optional<TemplateLocator.TemplateLocation> locate(String id) {
        String resource = "templates/" + id + ".html";
        if (Thread.currentThread().getContextClassLoader().getResource(resource) == null) {
            return Optional.empty();
        }
        return Optional.of(new TemplateLocator.TemplateLocation() {
            @Override
            public Reader read() {
                InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource);
                return new InputStreamReader(in, StandardCharsets.UTF_8);
            }

            @Override
            public Optional<Variant> getVariant() {
                return Optional.of(Variant.forContentType(Variant.TEXT_HTML));
            }
        });
    }
}
