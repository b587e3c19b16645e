package io.orderflow.shared.metrics;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Metrics;
import io.orderflow.support.SignInForm;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;

/**
 * The public port serves /q/metrics to the monitoring system's metrics account and to staff only, however
 * the address is spelled; the metrics account reads nothing else; health stays open to probes.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class MetricsAccessTest {

    /** The metrics path as an attacker might spell it to slip past a permission written for /q/metrics. */
    private static final List<String> SPELLINGS = List.of("/q/metrics", "/q/metrics/", "/q//metrics", "/q/./metrics", "/q/x/../metrics",
            "/q/metrics?format=text", "/q/metrics;x=1", "/q/%6detrics", "/q/metrics%2F", "/%71/metrics", "/Q/METRICS", "/q/metrics/..;/metrics");

    @TestHTTPResource("/")
    URL app;

    @BeforeAll
    static void addTheMonitoringAccount() {
        Users.add("prometheus", "metrics");
    }

    @Test
    void noSpellingOfTheMetricsAddressAnswersAnyoneWithoutTheRole() throws IOException {
        Map<String, String> anonymous = new LinkedHashMap<>();
        Map<String, String> customer = new LinkedHashMap<>();
        for (String path : SPELLINGS) {
            anonymous.put(path, statusAndLeak(get(path, null)));
            customer.put(path, statusAndLeak(get(path, "alice:alice")));
        }
        System.out.println("[attack] /q/metrics on the public port, by spelling: anonymous " + anonymous + ", customer " + customer);
        assertThat(anonymous).allSatisfy((path, answer) -> assertThat(answer).as(path).isIn("401", "403", "404", "400"));
        assertThat(customer).allSatisfy((path, answer) -> assertThat(answer).as(path).isIn("401", "403", "404", "400"));
        assertThat(anonymous.get("/q/metrics")).isEqualTo("401");
        assertThat(customer.get("/q/metrics")).isEqualTo("403");
    }

    @Test
    void theMetricsAccountAndStaffReadTheMetrics() {
        request().auth().preemptive().basic("prometheus", "prometheus").get("/q/metrics").then()
                .statusCode(200).body(containsString("jvm_memory_used_bytes"));
        Metrics.scrape().then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void theMetricsAccountActsOnNothingElse() throws IOException {
        as("prometheus").get("/orders").then().statusCode(403).body("code", equalTo("forbidden"));
        as("prometheus").get("/products").then().statusCode(403);
        CookieFilter browser = new CookieFilter();
        SignInForm.signIn(browser, "prometheus", "prometheus");
        request().filter(browser).redirects().follow(false).get("/checkout").then().statusCode(403);
        // A POST is refused from its headers: the announced mebibyte is never waited for.
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("POST /orders/token HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("prometheus:prometheus")
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + (1 << 20) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            assertThat(head(socket.getInputStream())).startsWith("HTTP/1.1 403");
        }
    }

    @Test
    void healthAnswersProbesWithoutCredentials() {
        request().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        request().get("/q/health/live").then().statusCode(200);
    }

    /** The status of a raw GET (the path sent as written, never normalised by a client), and "leak" if it carried metrics. */
    private String get(String path, String credentials) throws IOException {
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(5_000);
            String authorization = credentials == null ? "" : "Authorization: " + basic(credentials) + "\r\n";
            socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + app.getHost() + "\r\n" + authorization + "Connection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String statusAndLeak(String answer) {
        String status = answer.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3);
        return answer.contains("jvm_") ? status + " leak" : status;
    }

    private static String head(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        for (int next = in.read(); next >= 0 && !head.toString().endsWith("\r\n\r\n"); next = in.read()) {
            head.append((char) next);
        }
        return head.toString();
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }
}
