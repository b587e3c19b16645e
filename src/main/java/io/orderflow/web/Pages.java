package io.orderflow.web;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.qute.Engine;
import io.quarkus.qute.HtmlEscaper;
import io.quarkus.qute.ReflectionValueResolver;
import io.quarkus.qute.TemplateLocator;
import io.quarkus.qute.ValueResolver;
import io.quarkus.qute.Variant;

/**
 * Renders the Qute templates under {@code src/main/resources/templates}, HTML-escaped. The Qute
 * engine is used as a library: the Quarkus extension needs a dev-mode artifact this build cannot get.
 * Templates write an instant for people as {@code {order.createdAt.readable}}: "30 Nov 2026, 10:05 UTC",
 * and a form's CSRF token as {@code {csrf.parameterName}} and {@code {csrf.token}} (read only by pages with a form).
 */
@ApplicationScoped
public class Pages {

    private static final DateTimeFormatter READABLE = DateTimeFormatter.ofPattern("d MMM uuuu, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    static final MediaType HTML = MediaType.TEXT_HTML_TYPE.withCharset("UTF-8");

    private final Engine engine = Engine.builder()
            .addDefaults()
            .addValueResolver(new ReflectionValueResolver())
            .addValueResolver(ValueResolver.builder().applyToBaseClass(Instant.class).applyToName("readable")
                    .resolveSync(context -> READABLE.format((Instant) context.getBase())).build())
            .addResultMapper(new HtmlEscaper(List.of(Variant.TEXT_HTML)))
            .addLocator(Pages::locate)
            .removeStandaloneLines(true)
            .strictRendering(false)
            .build();

    private final CsrfTokens csrf;

    public Pages(CsrfTokens csrf) {
        this.csrf = csrf;
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
        var instance = engine.getTemplate(template).instance().data("csrf", csrf);
        data.forEach(instance::data);
        return instance.render();
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
