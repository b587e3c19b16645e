package io.orderflow.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPattern;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A payment provider and warehouse (WireMock) whose answers a test scripts (e.g. a 429 with Retry-After,
 * then a success), recording every call with its key, arrival time and the status it was answered. Unscripted
 * calls succeed, or go on to a real provider a test names (e.g. the app's sandbox, whose ledger and
 * charge listing then hold what got through). Provider retries start at 20 ms, wait at most 1 s, and
 * give up after 3 s; outbox attempts come at most 200 ms apart, three to a budget, so an outage past the
 * budget takes about a second; a refund is overdue after 300 ms.
 */
public class FakeProviders implements QuarkusTestResourceLifecycleManager {

    /** A scripted answer; a failure without a body of its own answers {@code {"status":"refused"}}. */
    public record Reply(int status, Map<String, String> headers, String body) {

        public Reply(int status, Map<String, String> headers) {
            this(status, headers, null);
        }

        public static Reply status(int status) {
            return new Reply(status, Map.of());
        }

        /** A failure that says why, as a real provider does, e.g. {@code {"error":{"code":"charge_already_refunded",...}}}. */
        public static Reply json(int status, String body) {
            return new Reply(status, Map.of(), body);
        }
    }

    /** A call that arrived, and the status it was answered. */
    public record Call(String path, String key, Instant at, int status) {
    }

    private static final String KEY = "Idempotency-Key";
    // Scripts come before the answer to unscripted calls; a path's script is the scenario named by the path.
    private static final int SCRIPTED = 1;
    private static final int UNSCRIPTED = 10;
    /** How many answers each path's script has been given: the next one follows the state they leave. */
    private static final Map<String, Integer> SCRIPT_LENGTHS = new ConcurrentHashMap<>();
    private static WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
        server.start();
        clearScripts();
        String base = server.baseUrl();
        return Map.ofEntries(
                Map.entry("quarkus.rest-client.payment-provider.url", base + "/payments"),
                Map.entry("quarkus.rest-client.warehouse.url", base + "/warehouse"),
                Map.entry("io.orderflow.payment.PaymentGateway/Retry/delay", "20"),
                Map.entry("io.orderflow.payment.PaymentGateway/Retry/maxDuration", "3000"),
                Map.entry("io.orderflow.payment.PaymentGateway/Retry/durationUnit", "MILLIS"),
                Map.entry("orders.downstream.max-delay", "1s"),
                Map.entry("orders.outbox.base-delay", "20ms"),
                Map.entry("orders.outbox.max-delay", "200ms"),
                Map.entry("orders.outbox.max-attempts", "3"),
                Map.entry("orders.outbox.poll-interval", "100ms"),
                Map.entry("orders.payments.refund-overdue-after", "300ms"));
    }

    @Override
    public void stop() {
        server.stop();
    }

    /** The next answers at a path such as {@code /payments/charges}; afterwards calls succeed again. */
    public static void script(String path, Reply... replies) {
        int given = SCRIPT_LENGTHS.getOrDefault(path, 0);
        for (Reply reply : replies) {
            server.stubFor(any(urlPathEqualTo(path)).atPriority(SCRIPTED)
                    .inScenario(path).whenScenarioStateIs(given == 0 ? Scenario.STARTED : "answered " + given)
                    .willSetStateTo("answered " + ++given)
                    .willReturn(answer(reply)));
        }
        SCRIPT_LENGTHS.put(path, given);
    }

    /** Every call at this path gets this answer until {@link #endScript}: an outage that lasts as long as the test wants. */
    public static void outage(String path, Reply reply) {
        // In the path's scenario but in no state of it, so that endScript ends it with the script.
        server.stubFor(any(urlPathEqualTo(path)).atPriority(SCRIPTED).inScenario(path).willReturn(answer(reply)));
    }

    /** Calls at this path are answered as if its script had run out: the provider is back. */
    public static void endScript(String path) {
        server.getStubMappings().stream().filter(stub -> path.equals(stub.getScenarioName())).forEach(server::removeStub);
        SCRIPT_LENGTHS.remove(path);
    }

    /**
     * From now on unscripted calls go on to this provider, e.g. {@code http://127.0.0.1:port/sandbox} for the
     * app's sandbox ({@code /payments/refunds} goes to {@code .../sandbox/payments/refunds}), and its answers come back.
     */
    public static void forwardTo(URI realProvider) {
        server.stubFor(any(anyUrl()).atPriority(UNSCRIPTED).willReturn(aResponse().proxiedFrom(realProvider.toString())));
    }

    /** Calls succeed here again, unscripted and not forwarded. */
    public static void clearScripts() {
        server.resetMappings();
        SCRIPT_LENGTHS.clear();
        server.stubFor(any(anyUrl()).atPriority(UNSCRIPTED).willReturn(answer(Reply.status(201))));
    }

    /** In the order they arrived; the journal holds each call with its answer before the answer leaves. */
    public static List<Call> calls(String path, String key) {
        RequestPattern pattern = anyRequestedFor(urlPathEqualTo(path)).withHeader(KEY, equalTo(key)).build();
        List<ServeEvent> events = new ArrayList<>(server.getAllServeEvents());
        Collections.reverse(events); // the journal lists the latest first
        return events.stream().filter(event -> pattern.match(event.getRequest()).isExactMatch())
                .map(event -> new Call(path, key, event.getRequest().getLoggedDate().toInstant(), event.getResponse().getStatus()))
                .toList();
    }

    private static ResponseDefinitionBuilder answer(Reply reply) {
        ResponseDefinitionBuilder answer = aResponse().withStatus(reply.status()).withHeader("Content-Type", "application/json");
        reply.headers().forEach(answer::withHeader);
        if (reply.status() >= 300) {
            return answer.withBody(reply.body() == null ? "{\"status\":\"refused\"}" : reply.body());
        }
        // Lookups and voids carry no key: their answer names the key null.
        String key = "{{{val request.headers.Idempotency-Key or='null'}}}";
        return answer.withBody("{\"reference\":\"fake-" + key + "\",\"key\":\"" + key + "\",\"status\":\"succeeded\"}")
                .withTransformers("response-template");
    }
}
