package io.orderflow.web;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.web.WebCheckoutTest.browser;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The health page: the last hour as inline SVG charts, each an image named by its title and described in words, the
 * newest figure written out; the business figures from the database, this instance's from its samples. Customers are
 * refused.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ConsoleHealthPageTest {

    private static final String PAGE = "/console/health";
    private static final int ORDERS = 3;
    private static final List<String> CHARTS = List.of("orders", "pay-success", "request-p99", "event-lag", "outbox-backlog", "dead-letters");
    private static final String THIS_MINUTE = "SELECT date_trunc('minute', now())::text";
    private static final String ORDERS_THIS_MINUTE = "SELECT count(*) FROM orders WHERE created_at >= date_trunc('minute', now())";
    private static final String PAID_THIS_MINUTE = """
            SELECT 100.0 * count(*) FILTER (WHERE status IN ('SUCCESS', 'REFUNDED')) / NULLIF(count(*) FILTER (WHERE status <> 'PROCESSING'), 0)
            FROM payments WHERE created_at >= date_trunc('minute', now())""";

    @Inject
    HealthSampler sampler;

    @Test
    void theLastHourIsDrawnWithTheNewestFiguresWrittenOut() {
        // A sample before and after some requests, as a minute's two would be, so the p99 chart has a point.
        sampler.sample();
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            String id = newOrder("alice");
            act("alice", id, "pay").then().statusCode(200);
            orders.add(id);
        }
        sampler.sample();
        WebCheckoutTest.Browser ops = browser("ops");

        // The page and the counts of the same minute, read again should the minute turn or another order come meanwhile.
        String page;
        String minute;
        String placed;
        String paid;
        do {
            minute = Orders.value(THIS_MINUTE);
            placed = Orders.value(ORDERS_THIS_MINUTE);
            paid = Orders.value(PAID_THIS_MINUTE);
            page = ops.get(PAGE).then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        } while (!minute.equals(Orders.value(THIS_MINUTE)) || !placed.equals(Orders.value(ORDERS_THIS_MINUTE))
                || !Objects.equals(paid, Orders.value(PAID_THIS_MINUTE)));

        for (String chart : CHARTS) {
            assertThat(page).contains("<svg role=\"img\" aria-labelledby=\"" + chart + "-title " + chart + "-desc\"",
                    "<desc id=\"" + chart + "-desc\">", "<strong id=\"" + chart + "-latest\">");
            assertThat(page).as(chart).containsPattern("<title id=\"" + chart + "-title\">[^<]+</title>");
        }
        assertThat(latest(page, "orders")).isEqualTo(placed);
        if (minute.equals(Orders.value("SELECT date_trunc('minute', min(created_at))::text FROM orders WHERE id::text = ANY(?::text[])",
                "{" + String.join(",", orders) + "}"))) {
            assertThat(Integer.parseInt(latest(page, "orders"))).isGreaterThanOrEqualTo(ORDERS);
        }
        assertThat(latest(page, "pay-success")).isEqualTo(paid == null ? "no figure yet" : Sparkline.figure(Double.parseDouble(paid)));
        assertThat(latest(page, "outbox-backlog")).matches("[0-9]+");
        assertThat(latest(page, "dead-letters")).matches("[0-9]+");
        assertThat(page).contains("<title id=\"orders-title\">Orders placed per minute</title>", "<polyline points=\"", "These are this instance");

        // The scheduler samples too, once a minute: should its sample come after the test's, of a moment without requests,
        // the page's requests are in the next one.
        String p99 = latest(page, "request-p99");
        for (int sampled = 0; p99.equals("no figure yet") && sampled < 2; sampled++) {
            sampler.sample();
            p99 = latest(ops.get(PAGE).asString(), "request-p99");
        }
        assertThat(p99).as("sampled after requests").matches("[0-9.]+");
    }

    @Test
    void customersAreRefusedAndThePageSpeaksChinese() {
        browser("alice").get(PAGE).then().statusCode(403);
        assertThat(browser("ops").request().header("Accept-Language", "zh-CN").get(PAGE).asString())
                .contains("<html lang=\"zh-CN\">", "<h1>服务运行状况</h1>", "每分钟下单数");
    }

    private static String latest(String page, String chart) {
        Matcher latest = Pattern.compile("<strong id=\"" + chart + "-latest\">([^<]*)</strong>").matcher(page);
        assertThat(latest.find()).as(chart).isTrue();
        return latest.group(1);
    }
}
