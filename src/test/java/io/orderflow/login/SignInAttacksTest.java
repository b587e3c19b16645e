package io.orderflow.login;

import static io.orderflow.support.TightLimits.CHECKS_PER_SECOND_PAST_ADDRESS_LIMIT;
import static io.orderflow.support.TightLimits.PER_ADDRESS;
import static io.orderflow.support.TightLimits.PER_USER_AND_ADDRESS;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.support.TestServers;
import io.orderflow.support.TightLimits;
import io.orderflow.support.UserStoreProxy;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The throttle as an attacker meets it: guesses sent all at once from one address, and one password
 * sprayed over hundreds of names from one address. Every password check is counted: a wrong one as
 * {@code orders_login_failures_total}, and each is answered 401; every refusal 429 before any check.
 */
@QuarkusTest
@TestProfile(TightLimits.class)
@WithTestResource(TestServers.class)
@WithTestResource(UserStoreProxy.class)
class SignInAttacksTest {

    private static final int BURST = 200;
    private static final int SPRAY = 400;
    private static final int SPRAYERS = 16;
    private static final int RIGHT_BURST = 40;

    @Inject
    MeterRegistry metrics;

    @TestHTTPResource("/products?limit=1")
    URL products;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** 200 wrong passwords for one user from one address, all in flight at once: exactly the limit's checks, the rest refused unchecked. */
    @Test
    void aBurstOfGuessesAtOneUserGetsNoMoreChecksThanTheLimit() throws Exception {
        String name = newUser("burst");
        String address = "192.0.2.10";
        double failures = failures();

        List<CompletableFuture<HttpResponse<String>>> guesses = new ArrayList<>();
        for (int i = 0; i < BURST; i++) {
            guesses.add(http.sendAsync(request(address, name, "guess-" + i), HttpResponse.BodyHandlers.ofString()));
        }
        Map<Integer, Integer> byStatus = byStatus(guesses.stream().map(CompletableFuture::join).toList());

        System.out.printf("[attack] burst: %d simultaneous guesses for one user from one address: %d password checks, answers %s%n",
                BURST, (long) (failures() - failures), byStatus);
        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(401, PER_USER_AND_ADDRESS, 429, BURST - PER_USER_AND_ADDRESS));
        assertThat(failures() - failures).as("password checks made").isEqualTo(PER_USER_AND_ADDRESS);
        // The right password from that address is refused too: the guesses used up its checks.
        assertThat(http.send(request(address, name, name), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(429);
        assertThat(http.send(request("192.0.2.11", name, name), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }

    /**
     * 40 sign-ins of one user with the right password, all at once from one address (a client's retries, tabs
     * restored at once): the checks in flight fill the pair's limit, and the rest wait for them rather than
     * being refused for the window. Every one signs in, and no failure is counted.
     */
    @Test
    void aBurstOfTheRightPasswordFromOneAddressAllSignIn() {
        String name = newUser("crowd");
        String address = "192.0.2.30";
        double failures = failures();
        double waited = metrics.counter("orders.login.throttled", "by", "checks-in-flight").count();

        List<CompletableFuture<HttpResponse<String>>> signIns = new ArrayList<>();
        for (int i = 0; i < RIGHT_BURST; i++) {
            signIns.add(http.sendAsync(request(address, name, name), HttpResponse.BodyHandlers.ofString()));
        }
        Map<Integer, Integer> byStatus = byStatus(signIns.stream().map(CompletableFuture::join).toList());

        System.out.printf("[attack] the right password %d times at once from one address (limit %d a pair): answers %s%n", RIGHT_BURST,
                PER_USER_AND_ADDRESS, byStatus);
        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(200, RIGHT_BURST));
        assertThat(failures() - failures).as("failures counted").isZero();
        assertThat(metrics.counter("orders.login.throttled", "by", "checks-in-flight").count()).isEqualTo(waited);
    }

    /**
     * One password over 400 names from one address, 16 at a time: past the address's limit its checks
     * are bounded to the configured rate, whatever the names; the rest are refused with Retry-After 1.
     */
    @Test
    void onePasswordSprayedOverManyNamesIsBoundedInRate() throws Exception {
        String address = "192.0.2.20";
        String tag = UUID.randomUUID().toString().substring(0, 8);
        double failures = failures();
        double byRate = metrics.counter("orders.login.throttled", "by", "address-rate").count();

        ExecutorService sprayers = Executors.newFixedThreadPool(SPRAYERS);
        List<HttpResponse<String>> answers = new ArrayList<>();
        long start = System.nanoTime();
        try {
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < SPRAY; i++) {
                HttpRequest guess = request(address, "spray-" + tag + "-" + i, "Winter2026!");
                sent.add(sprayers.submit(() -> http.send(guess, HttpResponse.BodyHandlers.ofString())));
            }
            for (Future<HttpResponse<String>> answer : sent) {
                answers.add(answer.get());
            }
        } finally {
            sprayers.shutdownNow();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        Map<Integer, Integer> byStatus = byStatus(answers);
        long checks = (long) (failures() - failures);

        System.out.printf("[attack] spray: one password over %d names from one address, %d at a time, in %d ms: %d password checks, answers %s%n",
                SPRAY, SPRAYERS, took.toMillis(), checks, byStatus);
        assertThat(byStatus.keySet()).containsOnly(401, 429);
        assertThat(byStatus.get(401)).as("answers after a password check").isEqualTo((int) checks);
        // The address's own limit, then its rate for each second (or part of one) the spray lasted.
        long seconds = took.toSeconds() + 1;
        assertThat(checks).isBetween((long) PER_ADDRESS, PER_ADDRESS + CHECKS_PER_SECOND_PAST_ADDRESS_LIMIT * (seconds + 1));
        assertThat(answers).filteredOn(answer -> answer.statusCode() == 429)
                .allSatisfy(answer -> assertThat(answer.headers().firstValue("Retry-After")).hasValue("1"));
        assertThat(metrics.counter("orders.login.throttled", "by", "address-rate").count() - byRate).isEqualTo((double) byStatus.get(429));
    }

    private HttpRequest request(String address, String user, String password) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return HttpRequest.newBuilder(URI.create(products.toString())).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Basic " + credentials).header("X-Forwarded-For", address).GET().build();
    }

    private static Map<Integer, Integer> byStatus(List<HttpResponse<String>> answers) {
        Map<Integer, Integer> byStatus = new TreeMap<>();
        answers.forEach(answer -> byStatus.merge(answer.statusCode(), 1, Integer::sum));
        return byStatus;
    }

    private double failures() {
        return metrics.counter("orders.login.failures").count();
    }

    private static String newUser(String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        return name;
    }
}
