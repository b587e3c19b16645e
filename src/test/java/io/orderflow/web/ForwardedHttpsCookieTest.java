package io.orderflow.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TightLimits;
import io.orderflow.support.SignInForm;
import io.orderflow.support.TestServers;
import io.orderflow.support.UserStoreProxy;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * Behind a TLS-terminating proxy that is trusted to say so, a request it received over HTTPS gets Secure
 * cookies, the csrf cookie named {@code __Host-}: a browser takes it from this host only, never from a
 * sibling subdomain.
 */
@QuarkusTest
@TestProfile(TightLimits.class)
@WithTestResource(TestServers.class)
@WithTestResource(UserStoreProxy.class)
class ForwardedHttpsCookieTest {

    @Test
    void cookiesAreSecureWhenTheProxyReceivedTheRequestOverHttps() {
        Response login = given().header("X-Forwarded-Proto", "https").get("/login");
        assertThat(SetCookies.of(login, "csrf-token")).isNull();
        Map<String, String> csrf = SetCookies.of(login, "__Host-csrf-token");
        assertThat(csrf).containsKey("secure").containsKey("httponly").containsEntry("samesite", "Lax").containsEntry("path", "/")
                .doesNotContainKey("domain");

        Response signedIn = signIn(login, "__Host-csrf-token", csrf.get("="), "https");
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(SetCookies.of(signedIn, "quarkus-credential")).containsKey("secure").containsKey("httponly").containsEntry("samesite", "Strict");
        assertThat(SetCookies.of(signedIn, "__Host-csrf-token")).containsKey("secure").containsEntry("samesite", "Strict").containsEntry("path", "/");
    }

    @Test
    void cookiesAreNotSecureWhenTheProxyReceivedTheRequestOverHttp() {
        Response login = given().header("X-Forwarded-Proto", "http").get("/login");
        Map<String, String> csrf = SetCookies.of(login, "csrf-token");
        assertThat(csrf).doesNotContainKey("secure").containsKey("httponly");

        Response signedIn = signIn(login, "csrf-token", csrf.get("="), "http");
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(SetCookies.of(signedIn, "quarkus-credential")).doesNotContainKey("secure").containsKey("httponly");
    }

    /**
     * The login page's form sent back as alice, through the proxy over the given scheme. The cookie is
     * sent by hand: a client's cookie store keeps a Secure cookie off this test's plain-HTTP connection.
     */
    private static Response signIn(Response loginPage, String csrfCookieName, String csrfCookie, String scheme) {
        Matcher action = SignInForm.ACTION.matcher(loginPage.asString());
        assertThat(action.find()).isTrue();
        return given().redirects().follow(false).header("X-Forwarded-Proto", scheme).cookie(csrfCookieName, csrfCookie)
                .formParam("j_username", "alice").formParam("j_password", "alice").post(action.group(1));
    }
}
