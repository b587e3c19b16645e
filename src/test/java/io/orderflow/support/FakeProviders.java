package io.orderflow.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A payment provider and warehouse whose answers a test scripts (e.g. a 429 with Retry-After, then a
 * success), recording every call with its key and arrival time. Unscripted calls succeed. Provider
 * retries start at 20 ms, wait at most 1 s, and give up after 3 s.
 */
public class FakeProviders implements QuarkusTestResourceLifecycleManager {

    /** A scripted answer. */
    public record Reply(int status, Map<String, String> headers) {
        public static Reply status(int status) {
            return new Reply(status, Map.of());
        }
    }

    /** A call that arrived. */
    public record Call(String path, String key, Instant at) {
    }

    private static final Map<String, Deque<Reply>> SCRIPTS = new ConcurrentHashMap<>();
    private static final List<Call> CALLS = new ArrayList<>();
    private static HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", FakeProviders::answer);
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of(
                "quarkus.rest-client.payment-provider.url", base + "/payments",
                "quarkus.rest-client.warehouse.url", base + "/warehouse",
                "io.orderflow.payment.PaymentGateway/Retry/delay", "20",
                "io.orderflow.payment.PaymentGateway/Retry/maxDuration", "3000",
                "io.orderflow.payment.PaymentGateway/Retry/durationUnit", "MILLIS",
                "orders.downstream.max-delay", "1s",
                "orders.outbox.base-delay", "20ms",
                "orders.outbox.max-attempts", "3",
                "orders.outbox.poll-interval", "100ms");
    }

    @Override
    public void stop() {
        server.stop(0);
    }

    /** The next answers at a path such as {@code /payments/charges}; afterwards calls succeed again. */
    public static void script(String path, Reply... replies) {
        SCRIPTS.computeIfAbsent(path, p -> new ArrayDeque<>()).addAll(List.of(replies));
    }

    public static void clearScripts() {
        SCRIPTS.clear();
    }

    public static List<Call> calls(String path, String key) {
        synchronized (CALLS) {
            return CALLS.stream().filter(call -> call.path().equals(path) && key.equals(call.key())).toList();
        }
    }

    private static void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        synchronized (CALLS) {
            CALLS.add(new Call(path, key, Instant.now()));
        }
        exchange.getRequestBody().readAllBytes();
        Deque<Reply> script = SCRIPTS.get(path);
        Reply reply;
        synchronized (FakeProviders.class) {
            reply = script == null || script.isEmpty() ? Reply.status(201) : script.poll();
        }
        byte[] body = (reply.status() < 300 ? "{\"reference\":\"fake-" + key + "\",\"key\":\"" + key + "\",\"status\":\"succeeded\"}" : "{\"status\":\"refused\"}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
        exchange.sendResponseHeaders(reply.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
