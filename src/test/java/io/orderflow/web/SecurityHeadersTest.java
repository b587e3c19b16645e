package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/**
 * The pages, their assets and the API answer with a Content-Security-Policy that allows no inline
 * script or style and no framing, with nosniff and a same-origin Referrer-Policy; and no template
 * or asset holds anything that policy would block.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class SecurityHeadersTest {

    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    /** An inline script, an inline event handler, an inline style or a javascript: address. */
    private static final Pattern INLINE = Pattern.compile("<script(?![^>]*\\ssrc=)[^>]*>|\\son[a-z]+\\s*=|\\sstyle\\s*=|<style|javascript:",
            Pattern.CASE_INSENSITIVE);

    @Test
    void everyPageAssetAndApiAnswerCarriesTheSecurityHeaders() {
        WebCheckoutTest.Browser alice = WebCheckoutTest.browser("alice");
        String order = WebCheckoutTest.placeNotebook(alice);
        List<Response> answers = List.of(given().get("/login"), alice.get("/checkout"), alice.get(order), alice.get("/checkout/orders"),
                given().get("/assets/checkout.js"), given().get("/assets/site.css"), given().redirects().follow(false).get("/checkout"),
                as("alice").get("/orders?limit=1"), as("alice").post("/orders/token"), given().get("/orders"));
        for (Response answer : answers) {
            assertThat(answer.header("Content-Security-Policy")).isEqualTo(POLICY);
            assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(answer.header("Referrer-Policy")).isEqualTo("same-origin");
            assertThat(answer.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(answer.header("Strict-Transport-Security")).isEqualTo("max-age=31536000");
        }
    }

    @Test
    void quarkusOwnPagesAreLeftAlone() {
        assertThat(given().get("/q/health/live").header("Content-Security-Policy")).isNull();
    }

    @Test
    void noTemplateOrAssetHoldsAnInlineScriptHandlerOrStyle() throws IOException {
        for (Path root : List.of(Path.of("src/main/resources/templates"), Path.of("src/main/resources/META-INF/resources"))) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".html")).toList()) {
                    assertThat(INLINE.matcher(Files.readString(file)).results().map(found -> found.group()).toList())
                            .as("what a Content-Security-Policy without 'unsafe-inline' blocks in %s", file).isEmpty();
                }
            }
        }
    }
}
