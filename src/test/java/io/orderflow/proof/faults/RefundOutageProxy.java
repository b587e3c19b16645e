package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A payment provider in front of a sandbox: it passes every call on, but while an outage is on it
 * answers refund calls 503 before the sandbox sees them, as a provider that is down would, and counts them.
 */
final class RefundOutageProxy implements AutoCloseable {

    private static final String REFUNDS = "/sandbox/payments/refunds";
    private static final byte[] UNAVAILABLE = "{\"status\":\"unavailable\"}".getBytes(StandardCharsets.UTF_8);
    /** The instances call the provider from many threads at once; one thread here would queue them behind each other. */
    private static final int THREADS = 16;

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    private final URI sandbox;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    private final AtomicBoolean outage = new AtomicBoolean();
    private final AtomicLong refused = new AtomicLong();

    private RefundOutageProxy(URI sandbox) {
        this.sandbox = sandbox;
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::answer);
        server.setExecutor(threads);
        server.start();
    }

    /** A proxy for the sandbox served at this base (an instance's http://host:port). */
    static RefundOutageProxy start(URI sandbox) {
        return new RefundOutageProxy(sandbox);
    }

    /** Where the instances find the payment provider (quarkus.rest-client.payment-provider.url). */
    URI paymentProvider() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/sandbox/payments");
    }

    void outage(boolean on) {
        outage.set(on);
    }

    /** Refund calls answered 503 during the outage. */
    long refused() {
        return refused.get();
    }

    private void answer(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        if (outage.get() && exchange.getRequestURI().getPath().equals(REFUNDS)) {
            refused.incrementAndGet();
            send(exchange, 503, UNAVAILABLE);
            return;
        }
        HttpRequest.Builder call = HttpRequest.newBuilder(sandbox.resolve(exchange.getRequestURI().toString())).timeout(Duration.ofSeconds(30))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        for (String header : List.of("Authorization", "Idempotency-Key", "Content-Type", "Accept")) {
            String value = exchange.getRequestHeaders().getFirst(header);
            if (value != null) {
                call.header(header, value);
            }
        }
        try {
            HttpResponse<byte[]> answer = http.send(call.build(), HttpResponse.BodyHandlers.ofByteArray());
            answer.headers().firstValue("Retry-After").ifPresent(after -> exchange.getResponseHeaders().add("Retry-After", after));
            send(exchange, answer.statusCode(), answer.body());
        } catch (IOException e) {
            // The sandbox did not answer: the instance sees what an unreachable provider gives.
            send(exchange, 502, UNAVAILABLE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(exchange, 502, UNAVAILABLE);
        }
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
