package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Ledger;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * 100 orders paid at once while the provider answers half of all calls with 503 and makes a tenth
 * of them outlast the client's 2 s timeout (they complete at the provider 3 s after arriving): every
 * order ends with exactly one charge, and the waits between attempts grow exponentially up to the cap.
 */
@QuarkusTest
@TestProfile(PaymentChaosTest.UnreliableProvider.class)
@WithTestResource(TestServers.class)
class PaymentChaosTest {

    private static final Logger LOG = Logger.getLogger(PaymentChaosTest.class);
    private static final int ORDERS = 100;
    private static final long BASE_DELAY_MS = 100;
    private static final long MAX_DELAY_MS = 1600;

    public static class UnreliableProvider implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    Map.entry("orders.sandbox.failure-rate", "0.5"),
                    Map.entry("orders.sandbox.slow-rate", "0.1"),
                    Map.entry("orders.sandbox.slow-latency", "3s"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Timeout/value", "2000"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Timeout/unit", "MILLIS"),
                    Map.entry("io.orderflow.payment.PaymentGateway/Retry/delay", String.valueOf(BASE_DELAY_MS)),
                    Map.entry("io.orderflow.payment.PaymentGateway/Retry/maxRetries", "10"),
                    Map.entry("orders.downstream.max-delay", MAX_DELAY_MS + "ms"),
                    Map.entry("orders.payments.recovery-interval", "off"),
                    Map.entry("quarkus.thread-pool.max-threads", "400"),
                    Map.entry("quarkus.rest-client.payment-provider.connection-pool-size", "256"),
                    Map.entry("quarkus.datasource.jdbc.max-size", "48"));
        }
    }

    @Test
    void everyOrderIsChargedExactlyOnceAndRetriesBackOffExponentially() throws SQLException {
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            orders.add(newOrder("alice"));
        }
        List<Callable<Response>> payments = orders.stream().<Callable<Response>>map(id -> () -> act("alice", id, "pay")).toList();
        List<Response> answers = Parallel.run(payments);

        List<String> unpaid = new ArrayList<>();
        int overloaded = 0;
        for (int i = 0; i < ORDERS; i++) {
            Response answer = answers.get(i);
            assertThat(answer.statusCode()).as("answer to paying %s: %s", orders.get(i), answer.asString()).isIn(200, 502, 503);
            if (answer.statusCode() == 200) {
                assertThat(answer.<String>path("status")).isEqualTo("paid");
                assertThat(Ledger.of(orders.get(i)).charges()).as("charges of paid order %s", orders.get(i)).isEqualTo(1);
                continue;
            }
            // 502: the provider never answered within the retry budget. 503: this burst of a hundred pays on two
            // cores kept the database pool busy past its acquisition timeout. Either way the client retries.
            assertThat(answer.contentType()).startsWith("application/problem+json");
            assertThat(answer.<String>path("code")).isEqualTo(answer.statusCode() == 502 ? "payment-provider-unavailable" : "service-unavailable");
            assertThat(Ledger.of(orders.get(i)).charges()).as("charges of %s after a %d", orders.get(i), answer.statusCode()).isLessThanOrEqualTo(1);
            overloaded += answer.statusCode() == 503 ? 1 : 0;
            unpaid.add(orders.get(i));
        }
        Map<Integer, List<Long>> waitsByRetry = waitsAfterFastFailures(orders);
        LOG.infof("Paid at once: %d of %d (503: %d); waits after a 503 from the provider, by retry: %s", ORDERS - unpaid.size(), ORDERS,
                overloaded, summary(waitsByRetry));

        // A client retries the payments that answered 502 or 503; whatever the provider did before, one charge each.
        for (String id : unpaid) {
            for (int attempt = 0; attempt < 10 && as("alice").get("/orders/{id}", id).<String>path("status").equals("created"); attempt++) {
                act("alice", id, "pay");
            }
        }
        for (String id : orders) {
            assertThat(as("alice").get("/orders/{id}", id).<String>path("status")).as("status of %s", id).isEqualTo("paid");
            assertThat(Ledger.of(id).charges()).as("charges of %s", id).isEqualTo(1);
        }

        assertThat(waitsByRetry.keySet()).as("retries observed").contains(0, 1, 2);
        waitsByRetry.forEach((retry, waits) -> {
            long ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS << retry);
            // Equal jitter: never less than half the exponential delay (a floor that doubles per retry up to
            // the cap). The waits are read between the sandbox's records of arrival, so an attempt that queued
            // for a thread makes the next wait look shorter by as much: the typical wait holds the floor.
            assertThat(median(waits)).as("median wait before retry %d", retry + 1).isGreaterThanOrEqualTo(ceiling / 2 - 5);
            // The cap holds for the typical wait: on two busy cores one retry may queue for a worker thread for
            // seconds before the sandbox records its arrival, but the median stays within the cap plus 1 s, which
            // an uncapped doubling (3.2 s by the sixth retry) would not.
            assertThat(median(waits)).as("median wait before retry %d", retry + 1).isLessThanOrEqualTo(MAX_DELAY_MS + 1000);
        });
    }

    /**
     * From the sandbox's record of calls: the time from a 503 answered at once (not one of the slow
     * calls the client gave up on) to the next call for the same order, keyed by the retry number it
     * preceded (0 = before the first retry).
     */
    private static Map<Integer, List<Long>> waitsAfterFastFailures(List<String> orders) throws SQLException {
        Map<Integer, List<Long>> waits = new TreeMap<>();
        Map<String, List<Object[]>> callsByOrder = new HashMap<>();
        try (Connection db = TestServers.connect();
                PreparedStatement query = db.prepareStatement(
                        "SELECT order_id::text, status, at, answered_at FROM sandbox_calls WHERE kind = 'charge' ORDER BY order_id, at")) {
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    callsByOrder.computeIfAbsent(rows.getString(1), id -> new ArrayList<>())
                            .add(new Object[] { rows.getInt(2), rows.getTimestamp(3), rows.getTimestamp(4) });
                }
            }
        }
        for (String id : orders) {
            List<Object[]> calls = callsByOrder.getOrDefault(id, List.of());
            for (int i = 0; i + 1 < calls.size(); i++) {
                Object[] call = calls.get(i);
                boolean answeredAtOnce = ((Timestamp) call[2]).getTime() - ((Timestamp) call[1]).getTime() < 100;
                if ((int) call[0] == 503 && answeredAtOnce) {
                    long wait = ((Timestamp) calls.get(i + 1)[1]).getTime() - ((Timestamp) calls.get(i)[2]).getTime();
                    waits.computeIfAbsent(i, retry -> new ArrayList<>()).add(wait);
                }
            }
        }
        return waits;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static String summary(Map<Integer, List<Long>> waits) {
        StringBuilder text = new StringBuilder();
        waits.forEach((retry, values) -> text.append("\n  retry ").append(retry + 1).append(": n=").append(values.size())
                .append(" min=").append(values.stream().min(Long::compare).orElse(0L))
                .append(" median=").append(median(values))
                .append(" max=").append(values.stream().max(Long::compare).orElse(0L)).append(" ms"));
        return text.toString();
    }
}
