package io.orderflow.payment;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.field;
import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import jakarta.inject.Inject;

import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
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
 * order ends with exactly one charge, and the waits Fault Tolerance took between attempts, as the
 * backoff recorded them, grow exponentially up to the cap ({@link RetryWaitsTest} holds each wait's bounds).
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

    @Inject
    MeterRegistry metrics;

    @Test
    void everyOrderIsChargedExactlyOnceAndRetriesBackOffExponentially() {
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
                assertThat(field(answer, "status")).isEqualTo("paid");
                assertThat(Ledger.of(orders.get(i)).charges()).as("charges of paid order %s", orders.get(i)).isEqualTo(1);
                continue;
            }
            // 502: the provider never answered within the retry budget. 503: this burst of a hundred pays on two
            // cores kept the database pool busy past its acquisition timeout. Either way the client retries.
            assertThat(answer.contentType()).startsWith("application/problem+json");
            assertThat(field(answer, "code")).isEqualTo(answer.statusCode() == 502 ? "payment-provider-unavailable" : "service-unavailable");
            assertThat(Ledger.of(orders.get(i)).charges()).as("charges of %s after a %d", orders.get(i), answer.statusCode()).isLessThanOrEqualTo(1);
            overloaded += answer.statusCode() == 503 ? 1 : 0;
            unpaid.add(orders.get(i));
        }
        Map<Integer, DistributionSummary> backoffs = backoffsByRetry();
        LOG.infof("Paid at once: %d of %d (503: %d); backoff waits by retry: %s", ORDERS - unpaid.size(), ORDERS, overloaded,
                summary(backoffs));

        // A client retries the payments that answered 502 or 503; whatever the provider did before, one charge each.
        for (String id : unpaid) {
            for (int attempt = 0; attempt < 10 && "created".equals(field(as("alice").get("/orders/{id}", id), "status")); attempt++) {
                act("alice", id, "pay");
            }
        }
        for (String id : orders) {
            assertThat(field(as("alice").get("/orders/{id}", id), "status")).as("status of %s", id).isEqualTo("paid");
            assertThat(Ledger.of(id).charges()).as("charges of %s", id).isEqualTo(1);
        }

        assertThat(backoffs.keySet()).as("retries that backed off").contains(1, 2, 3);
        backoffs.forEach((retry, waits) -> {
            long ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS << (retry - 1));
            // Equal jitter: every wait lies between half and all of the doubled delay, capped; so do their mean and max.
            assertThat(waits.max()).as("longest wait before retry %d", retry).isLessThanOrEqualTo(ceiling);
            assertThat(waits.mean()).as("mean wait before retry %d", retry).isBetween(ceiling / 2.0, (double) ceiling);
        });
    }

    /** The backoff waits Fault Tolerance took, as the backoff recorded them, by the retry they preceded (1 for the first); retries never reached left out. */
    private Map<Integer, DistributionSummary> backoffsByRetry() {
        Map<Integer, DistributionSummary> backoffs = new TreeMap<>();
        metrics.find(RetryWaitSummaries.NAME).tag("reason", "backoff").summaries().stream().filter(summary -> summary.count() > 0)
                .forEach(summary -> backoffs.put(Integer.parseInt(summary.getId().getTag("retry")), summary));
        return backoffs;
    }

    private static String summary(Map<Integer, DistributionSummary> waits) {
        StringBuilder text = new StringBuilder();
        waits.forEach((retry, summary) -> text.append("\n  retry ").append(retry).append(": n=").append(summary.count())
                .append(String.format(" mean=%.0f max=%.0f ms", summary.mean(), summary.max())));
        return text.toString();
    }
}
