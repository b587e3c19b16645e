package io.orderflow.sandbox;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.BackgroundThreads;
import io.orderflow.shared.webhook.EventSignature;

/**
 * The sandbox provider's event notifications (webhooks), sent as a real provider sends them: signed,
 * after a delay, repeated until answered 2xx (a few times, backing off), and, as configured, sent twice
 * or out of order ({@link SandboxConfig.Events}).
 */
@ApplicationScoped
public class SandboxEvents {

    private static final Logger LOG = Logger.getLogger(SandboxEvents.class);
    private static final String URL = "orders.sandbox.events.url";
    private static final int ATTEMPTS = 5;
    private static final Duration FIRST_RETRY = Duration.ofMillis(200);

    private final SandboxConfig.Events config;
    private final ObjectMapper json;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor(work -> {
        Thread thread = new Thread(work, "sandbox-events");
        thread.setDaemon(true);
        return thread;
    });

    public SandboxEvents(SandboxConfig config, ObjectMapper json) {
        this.config = config.events();
        this.json = json;
    }

    /** Notifies the shop of what happened to a charge (its record as a lookup shows it), unless no address is configured. */
    public void send(String type, Map<String, Object> charge) {
        // Read when sent: a test's address names the port the app was given at its start.
        Optional<String> url = ConfigProvider.getConfig().getOptionalValue(URL, String.class);
        if (url.isEmpty() || config.secret().isEmpty()) {
            return;
        }
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("id", "evt_" + UUID.randomUUID().toString().replace("-", ""));
        event.put("type", type);
        event.put("created", Instant.now().getEpochSecond());
        event.put("data", charge);
        byte[] body;
        try {
            body = json.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An event always serialises", e);
        }
        int copies = ThreadLocalRandom.current().nextDouble() < config.duplicateRate() ? 2 : 1;
        for (int copy = 0; copy < copies; copy++) {
            schedule(URI.create(url.get()), body, 1, config.delay().plusMillis(jitter()));
        }
    }

    private long jitter() {
        long max = config.jitter().toMillis();
        return max <= 0 ? 0 : ThreadLocalRandom.current().nextLong(max + 1);
    }

    private void schedule(URI to, byte[] body, int attempt, Duration after) {
        try {
            sender.schedule(() -> deliver(to, body, attempt), after.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            LOG.debugf("An event was not sent: the sandbox is stopping");
        }
    }

    private void deliver(URI to, byte[] body, int attempt) {
        int status;
        try {
            HttpRequest request = HttpRequest.newBuilder(to).timeout(Duration.ofSeconds(5))
                    .header("Content-Type", "application/json")
                    .header(EventSignature.HEADER, EventSignature.sign(config.secret().get(), Instant.now(), body))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            status = 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (status / 100 != 2 && attempt < ATTEMPTS) {
            schedule(to, body, attempt + 1, FIRST_RETRY.multipliedBy(1L << (attempt - 1)));
        } else if (status / 100 != 2) {
            LOG.warnf("The sandbox gave up an event after %d attempts (last answer %d)", attempt, status);
        }
    }

    @PreDestroy
    void stop() {
        BackgroundThreads.stop(sender, Duration.ofSeconds(1));
    }
}
