package io.orderflow.order;

import static io.orderflow.support.Api.ORDER;
import static io.orderflow.support.Api.newToken;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(TestServers.class)
class ConcurrentOrderCreationTest {

    private static final int REQUESTS = 64;

    @TestHTTPResource("/orders")
    URL orders;

    @Test
    void sixtyFourConcurrentSubmissionsOfOneTokenCreateOneOrder() {
        String token = newToken("alice");
        List<HttpResponse<String>> answers = submitAtOnce(token, ORDER, REQUESTS);

        assertThat(Orders.countForToken(token)).as("order rows for the token").isEqualTo(1);
        assertThat(answers).allSatisfy(answer -> assertThat(answer.statusCode()).isIn(201, 409));
        List<HttpResponse<String>> created = answers.stream().filter(a -> a.statusCode() == 201).toList();
        assertThat(created).isNotEmpty();
        assertThat(created).extracting(HttpResponse::body).containsOnly(created.get(0).body());
        assertThat(created).extracting(a -> a.headers().firstValue("Location").orElseThrow())
                .containsOnly(created.get(0).headers().firstValue("Location").orElseThrow());
        assertThat(created.stream().filter(a -> a.headers().firstValue("Idempotent-Replayed").isEmpty()))
                .as("first answers (not replays)").hasSize(1);
        answers.stream().filter(a -> a.statusCode() == 409).forEach(conflict -> {
            assertThat(conflict.body()).contains("\"code\":\"order-token-in-use\"");
            assertThat(conflict.headers().firstValue("Retry-After")).isPresent();
        });
    }

    private List<HttpResponse<String>> submitAtOnce(String token, String body, int count) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(orders.toString()))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("alice:alice".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .header("Order-Token", token)
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return Parallel.run(count, () -> client.send(request, HttpResponse.BodyHandlers.ofString()));
    }
}
