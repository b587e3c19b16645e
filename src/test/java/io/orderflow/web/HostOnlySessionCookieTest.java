package io.orderflow.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

import io.orderflow.support.SignInForm;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Served over HTTPS (behind the ingress, as the Kubernetes ConfigMap sets it up), both cookies are named
 * {@code __Host-}: a browser takes such a cookie only from this host, Secure, for the whole site and for no
 * domain, so no sibling subdomain can plant or overwrite a session or its csrf cookie.
 */
@QuarkusTest
@TestProfile(HostOnlySessionCookieTest.BehindAnHttpsIngress.class)
@WithTestResource(TestServers.class)
class HostOnlySessionCookieTest {

    /** The session cookie's name in the Kubernetes ConfigMap (KubernetesManifestsTest checks it there). */
    static final String SESSION = "__Host-orders-session";

    public static class BehindAnHttpsIngress implements QuarkusTestProfile {

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.auth.form.cookie-name", SESSION,
                    "quarkus.http.proxy.proxy-address-forwarding", "true",
                    "quarkus.http.proxy.allow-x-forwarded", "true");
        }
    }

    @Test
    void aSessionSignedInOverHttpsHasHostOnlyCookiesThatOpenItsPages() {
        Response login = https().get("/login");
        Map<String, String> preSession = SetCookies.of(login, "__Host-csrf-token");
        hostOnly(preSession);
        Matcher action = SignInForm.ACTION.matcher(login.asString());
        assertThat(action.find()).isTrue();

        Response signedIn = https().cookie("__Host-csrf-token", preSession.get("=")).formParam("j_username", "alice")
                .formParam("j_password", "alice").post(action.group(1));
        assertThat(signedIn.statusCode()).isEqualTo(302);
        Map<String, String> session = SetCookies.of(signedIn, SESSION);
        Map<String, String> csrf = SetCookies.of(signedIn, "__Host-csrf-token");
        hostOnly(session);
        hostOnly(csrf);
        assertThat(SetCookies.of(signedIn, "quarkus-credential")).isNull();

        https().cookie(SESSION, session.get("=")).cookie("__Host-csrf-token", csrf.get("=")).get("/checkout/orders").then().statusCode(200);
        // The plain names open nothing: a cookie planted under them by a sibling subdomain is not read.
        https().cookie("quarkus-credential", session.get("=")).cookie("csrf-token", csrf.get("=")).get("/checkout/orders").then().statusCode(302);
    }

    private static void hostOnly(Map<String, String> cookie) {
        assertThat(cookie).isNotNull().containsKey("secure").containsEntry("path", "/").doesNotContainKey("domain");
    }

    /** Requests as the ingress forwards them: received over HTTPS, sent on over plain HTTP; cookies sent by hand. */
    private static RequestSpecification https() {
        return given().redirects().follow(false).header("X-Forwarded-Proto", "https");
    }
}
