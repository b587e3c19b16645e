package io.orderflow.proof.faults;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.support.SignInForm;

/**
 * The soak's shoppers and staff on one instance: journeys through the API (token, order, a replay of it, reads, pay, ship,
 * cancel with its refund, orders left to expire) and through the web checkout (sign-in, the form, the order's page), each
 * request timed by what it is. {@link #closedLoop} measures how many journeys a second the instance serves;
 * {@link #startAtRate} then starts journeys at a fixed rate, whatever the answers' pace, as real customers arrive.
 * Any answer other than the one the journey expects is a surprise, kept to fail the soak.
 */
final class SoakLoad implements AutoCloseable {

    /** A kind of request, timed apart. */
    enum Call {
        TOKEN, ORDER, REPLAY, GET, PAY, SHIP, CANCEL, SIGN_IN, CHECKOUT_FORM, CHECKOUT_SUBMIT, ORDER_PAGE
    }

    private enum Journey {
        PAY_AND_READ, PAY_AND_SHIP, PAY_AND_CANCEL, ORDER_ONLY, WEB_CHECKOUT
    }

    /** A surprise: what a request was answered instead of what its journey expects (status 0: no answer). */
    record Surprise(Call call, int status, String body) {
    }

    private static final Journey[] MIX = { Journey.PAY_AND_READ, Journey.PAY_AND_SHIP, Journey.WEB_CHECKOUT, Journey.PAY_AND_CANCEL,
            Journey.ORDER_ONLY, Journey.PAY_AND_READ, Journey.PAY_AND_SHIP, Journey.WEB_CHECKOUT, Journey.PAY_AND_READ, Journey.ORDER_ONLY };
    private static final String STAFF = basic("ops");
    private static final String PAY_BODY = "{\"paymentMethod\":\"pm_card_visa\"}";
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final int MOST_SURPRISES_KEPT = 20;
    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");
    private static final Pattern CSRF = Pattern.compile("name=\"csrf-token\" value=\"([^\"]+)\"");
    private static final Pattern NOTEBOOK_PRICE = Pattern.compile("name=\"unitPrice\" value=\"([^\"]+)\" id=\"shown-price-ABC-1\"");
    private static final Map<String, String> ADDRESS = Map.of("addressName", "Han Meimei", "addressLine1", "Room 5, 77 Wulumuqi Road",
            "addressLine2", "", "addressCity", "Shanghai", "addressRegion", "Shanghai", "addressPostalCode", "200031", "addressCountry", "CN",
            "addressPhone", "+86 21 5555 0199");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    private final ThreadLocal<HttpClient> browsers = ThreadLocal.withInitial(() -> HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).cookieHandler(new CookieManager()).build());
    private final Map<Call, Latencies> latencies = new EnumMap<>(Call.class);
    private final AtomicInteger nextJourney = new AtomicInteger();
    private final AtomicLong journeys = new AtomicLong();
    private final AtomicLong surprises = new AtomicLong();
    private final Queue<Surprise> firstSurprises = new ConcurrentLinkedQueue<>();
    private final ExecutorService workers = Executors.newFixedThreadPool(64, Shoppers.daemon("soak-journey"));
    private final ScheduledExecutorService pace = Executors.newSingleThreadScheduledExecutor(Shoppers.daemon("soak-pace"));
    private final String run;

    SoakLoad(URI base, String run) {
        this.base = base;
        this.run = run;
        for (Call call : Call.values()) {
            latencies.put(call, new Latencies());
        }
    }

    /** Journeys completed a second by this many shoppers, each starting its next journey when its last ended. */
    double closedLoop(int shoppers, Duration during) {
        long deadline = System.nanoTime() + during.toNanos();
        long before = journeys.get();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < shoppers; i++) {
            Thread shopper = Shoppers.daemon("soak-calibration").newThread(() -> {
                while (System.nanoTime() < deadline) {
                    journey(nextJourney.getAndIncrement());
                }
            });
            threads.add(shopper);
            shopper.start();
        }
        long started = System.nanoTime();
        threads.forEach(SoakLoad::join);
        return (journeys.get() - before) / ((System.nanoTime() - started) / 1e9);
    }

    /** Starts a journey this many times a second from now on, until closed. */
    void startAtRate(double perSecond) {
        long period = Math.round(1e9 / perSecond);
        pace.scheduleAtFixedRate(() -> workers.execute(() -> journey(nextJourney.getAndIncrement())), 0, period, TimeUnit.NANOSECONDS);
    }

    long journeys() {
        return journeys.get();
    }

    long surprises() {
        return surprises.get();
    }

    List<Surprise> firstSurprises() {
        return List.copyOf(firstSurprises);
    }

    /** Each kind of request's p99 in milliseconds since the last call, and how many there were; the windows start again. */
    Map<Call, Latencies.Window> takeWindows() {
        Map<Call, Latencies.Window> windows = new LinkedHashMap<>();
        latencies.forEach((call, recorded) -> windows.put(call, recorded.take()));
        return windows;
    }

    private void journey(int number) {
        try {
            String user = number % 2 == 0 ? "alice" : "bob";
            switch (MIX[number % MIX.length]) {
                case PAY_AND_READ -> payAndRead(user, number);
                case PAY_AND_SHIP -> payAndShip(user, number);
                case PAY_AND_CANCEL -> payAndCancel(user, number);
                case ORDER_ONLY -> order(user, number);
                case WEB_CHECKOUT -> webCheckout(user);
            }
            journeys.incrementAndGet();
        } catch (SurpriseAnswer e) {
            // Counted where it happened; the journey ends there, as a customer's would.
        }
    }

    private void payAndRead(String user, int number) {
        String order = order(user, number);
        call(Call.GET, get(user, "/orders/" + order), 200);
        call(Call.PAY, post(basic(user), "/orders/" + order + "/pay", PAY_BODY, "pay-" + run + "-" + number), 200);
        call(Call.GET, get(user, "/orders/" + order), 200);
    }

    private void payAndShip(String user, int number) {
        String order = order(user, number);
        call(Call.PAY, post(basic(user), "/orders/" + order + "/pay", PAY_BODY, "pay-" + run + "-" + number), 200);
        call(Call.SHIP, post(STAFF, "/orders/" + order + "/ship", null, "ship-" + run + "-" + number), 200);
    }

    private void payAndCancel(String user, int number) {
        String order = order(user, number);
        call(Call.PAY, post(basic(user), "/orders/" + order + "/pay", PAY_BODY, "pay-" + run + "-" + number), 200);
        call(Call.CANCEL, post(basic(user), "/orders/" + order + "/cancel", null, "cancel-" + run + "-" + number), 200);
    }

    /** A token, the order with it, and the same request again (a client that lost the first answer): the same order. */
    private String order(String user, int number) {
        String token = text(call(Call.TOKEN, post(basic(user), "/orders/token", null, null), 201), "token");
        String body = "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"ABC-1\",\"quantity\":" + (1 + number % 3) + "}]}";
        HttpRequest submit = post(basic(user), "/orders", body, "order-" + run + "-" + number, token);
        String order = text(call(Call.ORDER, submit, 201), "id");
        String replayed = text(call(Call.REPLAY, submit, 201), "id");
        if (!order.equals(replayed)) {
            throw surprise(Call.REPLAY, 201, "another order: " + replayed + " for " + order);
        }
        return order;
    }

    /** The web checkout as a browser goes through it: the form, the order placed with it, the order's page. */
    private void webCheckout(String user) {
        HttpClient browser = browsers.get();
        String form = exchange(browser, Call.CHECKOUT_FORM, page("/checkout"));
        if (!form.contains("name=\"token\"")) {
            signIn(browser, user);
            form = exchange(browser, Call.CHECKOUT_FORM, page("/checkout"));
        }
        Map<String, String> fields = new LinkedHashMap<>(ADDRESS);
        fields.put("csrf-token", found(CSRF, form, Call.CHECKOUT_FORM));
        fields.put("token", found(FORM_TOKEN, form, Call.CHECKOUT_FORM));
        fields.put("sku", "ABC-1");
        fields.put("quantity", "1");
        fields.put("unitPrice", found(NOTEBOOK_PRICE, form, Call.CHECKOUT_FORM));
        fields.put("currency", "CNY");
        HttpResponse<String> placed = timed(browser, Call.CHECKOUT_SUBMIT, form("/checkout", fields));
        String orderPage = placed.headers().firstValue("Location").orElse(null);
        if (placed.statusCode() != 303 || orderPage == null) {
            throw surprise(Call.CHECKOUT_SUBMIT, placed.statusCode(), placed.body());
        }
        exchange(browser, Call.ORDER_PAGE, page(orderPage));
    }

    private void signIn(HttpClient browser, String user) {
        String action = found(SignInForm.ACTION, exchange(browser, Call.SIGN_IN, page("/login")), Call.SIGN_IN);
        HttpResponse<String> signedIn = timed(browser, Call.SIGN_IN, form(action, Map.of("j_username", user, "j_password", user)));
        if (signedIn.statusCode() != 302 && signedIn.statusCode() != 303) {
            throw surprise(Call.SIGN_IN, signedIn.statusCode(), signedIn.body());
        }
    }

    private HttpRequest page(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT).header("Accept", "text/html").GET().build();
    }

    private HttpRequest form(String path, Map<String, String> fields) {
        String body = fields.entrySet().stream()
                .map(field -> encode(field.getKey()) + "=" + encode(field.getValue())).collect(Collectors.joining("&"));
        return HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT).header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", base.toString().replaceAll("/$", "")).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpRequest get(String user, String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT).header("Authorization", basic(user))
                .header("Accept", "application/json").GET().build();
    }

    private HttpRequest post(String authorization, String path, String body, String idempotencyKey) {
        return post(authorization, path, body, idempotencyKey, null);
    }

    private HttpRequest post(String authorization, String path, String body, String idempotencyKey, String orderToken) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(REQUEST_TIMEOUT).header("Authorization", authorization)
                .header("Accept", "application/json");
        if (body == null) {
            request.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        if (orderToken != null) {
            request.header("Order-Token", orderToken);
        }
        return request.build();
    }

    /** Sends an API request, expects the status, and returns the JSON body. */
    private JsonNode call(Call call, HttpRequest request, int expected) {
        HttpResponse<String> response = timed(http, call, request);
        if (response.statusCode() != expected) {
            throw surprise(call, response.statusCode(), response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw surprise(call, response.statusCode(), "not JSON: " + response.body());
        }
    }

    /** Sends a page's request, expects 200, and returns the page. */
    private String exchange(HttpClient client, Call call, HttpRequest request) {
        HttpResponse<String> response = timed(client, call, request);
        if (response.statusCode() == 302 && call == Call.CHECKOUT_FORM) {
            // The session ended (or never began): the browser signs in, as its user would.
            return "";
        }
        if (response.statusCode() != 200) {
            throw surprise(call, response.statusCode(), response.body());
        }
        return response.body();
    }

    private HttpResponse<String> timed(HttpClient client, Call call, HttpRequest request) {
        long sent = System.nanoTime();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            latencies.get(call).record(System.nanoTime() - sent);
            return response;
        } catch (IOException e) {
            throw surprise(call, 0, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw surprise(call, 0, "interrupted");
        }
    }

    private String found(Pattern pattern, String page, Call call) {
        Matcher found = pattern.matcher(page);
        if (!found.find()) {
            throw surprise(call, 200, "no " + pattern.pattern() + " on the page");
        }
        return found.group(1);
    }

    private String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalStateException("No " + field + " in " + body);
        }
        return value.asText();
    }

    private SurpriseAnswer surprise(Call call, int status, String body) {
        surprises.incrementAndGet();
        if (firstSurprises.size() < MOST_SURPRISES_KEPT) {
            firstSurprises.add(new Surprise(call, status, body == null ? "" : body.substring(0, Math.min(300, body.length()))));
        }
        return new SurpriseAnswer();
    }

    /** Ends a journey at its first surprise. */
    private static final class SurpriseAnswer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SurpriseAnswer() {
            super(null, null, false, false);
        }
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8));
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        pace.shutdownNow();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(60, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One kind of request's times, in windows. */
    static final class Latencies {

        /** A window's p99 in milliseconds and its count of requests. */
        record Window(double p99Millis, int count) {
        }

        private List<Long> times = new ArrayList<>();

        synchronized void record(long nanos) {
            times.add(nanos);
        }

        Window take() {
            List<Long> window;
            synchronized (this) {
                window = times;
                times = new ArrayList<>();
            }
            if (window.isEmpty()) {
                return new Window(Double.NaN, 0);
            }
            long[] sorted = window.stream().mapToLong(Long::longValue).sorted().toArray();
            int rank = (int) Math.ceil(0.99 * sorted.length) - 1;
            return new Window(sorted[rank] / 1e6, sorted.length);
        }
    }
}
