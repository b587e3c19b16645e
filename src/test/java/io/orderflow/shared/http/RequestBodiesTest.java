package io.orderflow.shared.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.orderflow.support.SignInForm;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;

/** Bodies no endpoint could read are refused with a problem detail before anything parses them. */
@QuarkusTest
@WithTestResource(TestServers.class)
class RequestBodiesTest {

    private static final String FORM = "application/x-www-form-urlencoded";

    @TestHTTPResource("/")
    URL server;

    /**
     * A bad escape in a value fails Netty's decoder; in a name without '=' it fails the endpoint's form parser; an empty
     * name fails Netty. From a signed-in browser: without a session the sign-in page answers before the body is read.
     */
    @ParameterizedTest
    @ValueSource(strings = { "token=x&quantity=%zz", "%zz", "token=x&%e", "=" })
    void aFormThatIsNotUrlEncodedIs400(String body) {
        CookieFilter browser = new CookieFilter();
        SignInForm.signIn(browser, "alice", "alice").then().statusCode(302);
        given().filter(browser).redirects().follow(false).contentType(FORM).body(body).post("/checkout")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("malformed-body"))
                .body(not(containsString("Exception")));
    }

    /** An endpoint that takes any type (pay reads its optional body itself) used to wait for the parts forever, holding a thread. */
    @ParameterizedTest
    @ValueSource(strings = { "multipart/form-data; boundary=xyz", "multipart/form-data", "multipart/mixed; boundary=b" })
    void aMultipartBodyIs415AtOnce(String contentType) throws Exception {
        // Not RestAssured: it will not send a body that is not multipart as multipart.
        HttpRequest pay = HttpRequest.newBuilder(server.toURI().resolve("/orders/" + UUID.randomUUID() + "/pay"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("alice:alice".getBytes(StandardCharsets.UTF_8)))
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString("{\"paymentMethod\":\"pm_card_visa\"}"))
                .build();

        HttpResponse<String> refused = HttpClient.newHttpClient().send(pay, HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(415);
        assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
        assertThat(refused.body()).contains("\"code\":\"unsupported-media-type\"");
    }

    @ParameterizedTest
    @ValueSource(strings = { "text/plain", "application/json" })
    void aSignInThatIsNoFormIs415(String contentType) {
        given().redirects().follow(false).contentType(contentType).body("j_username=alice&j_password=alice").post("/j_security_check")
                .then()
                .statusCode(415)
                .contentType("application/problem+json")
                .body("code", equalTo("unsupported-media-type"));
    }

    /** Java's client, like curl --http2, asks to upgrade a cleartext request to HTTP/2; the answer comes over HTTP/1.1. */
    @Test
    void aClientAskingForHttp2IsAnsweredOverHttp11() throws Exception {
        HttpRequest pay = HttpRequest.newBuilder(server.toURI().resolve("/orders/" + UUID.randomUUID() + "/pay"))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("alice:alice".getBytes(StandardCharsets.UTF_8)))
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"paymentMethod\":\"pm_card_visa\"}"))
                .build();

        HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build().send(pay, HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(404);
        assertThat(answer.body()).contains("\"code\":\"order-not-found\"");
        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    }
}
