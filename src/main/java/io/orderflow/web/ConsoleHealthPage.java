package io.orderflow.web;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import io.orderflow.shared.security.Caller;
import io.orderflow.web.HealthSampler.Figure;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * The service's last hour for staff, as small charts a minute a point: orders placed and the payments' success rate,
 * the whole service's, from the database ({@link HealthStore}); and this instance's own samples ({@link HealthSampler}):
 * its requests' p99, the order events' lag, the outbox's backlog and its dead letters. Each chart is an inline SVG
 * image named by its title, with its figures also in words, so the page needs neither JavaScript nor sight.
 */
@Path(ConsoleOrderPage.CONSOLE + "/health")
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleHealthPage {

    /** A chart as the page shows it: its id, title, its figures in words, the newest as the page writes it, and its line. */
    public record Chart(String id, String title, String summary, String latest, Sparkline line) {
    }

    private static final double PERCENT = 100;

    private final HealthStore store;
    private final HealthSampler sampler;
    private final Pages pages;
    private final PageText text;

    public ConsoleHealthPage(HealthStore store, HealthSampler sampler, Pages pages, PageText text) {
        this.store = store;
        this.sampler = sampler;
        this.pages = pages;
        this.text = text;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show() {
        Sparkline orders = Sparkline.of(store.perMinute(HealthStore.ORDERS_PER_MINUTE), null);
        Sparkline paid = Sparkline.of(store.perMinute(HealthStore.PAY_SUCCESS_PER_MINUTE), PERCENT);
        Sparkline p99 = Sparkline.of(sampler.samples(Figure.REQUEST_P99), null);
        Map<String, Object> data = new HashMap<>();
        data.put("service", List.of(
                chart("orders", "console_health_orders", orders, orders.latest()),
                chart("pay-success", "console_health_paySuccess", paid, paid.latest())));
        data.put("instance", List.of(
                chart("request-p99", "console_health_requestP99", p99, p99.latest()),
                sampled("event-lag", "console_health_eventLag", Figure.EVENT_LAG),
                sampled("outbox-backlog", "console_health_outboxBacklog", Figure.OUTBOX_BACKLOG),
                sampled("dead-letters", "console_health_deadLetters", Figure.DEAD_LETTERS)));
        data.put("plot", Sparkline.LAYOUT);
        return pages.page(200, "console-health", data);
    }

    /** A gauge's chart: its samples of the hour, and its figure read now. */
    private Chart sampled(String id, String title, Figure gauge) {
        return chart(id, title, Sparkline.of(sampler.samples(gauge), null), sampler.now(gauge));
    }

    private Chart chart(String id, String titleKey, Sparkline line, Double latest) {
        String title = text.get(titleKey);
        String now = latest == null ? text.get("console_health_none") : Sparkline.figure(latest);
        String summary = line.highest() == null ? text.get("console_health_summaryNone", title, now)
                : text.get("console_health_summary", title, now, Sparkline.figure(line.highest()), Sparkline.figure(line.lowest()));
        return new Chart(id, title, summary, now, line);
    }
}
