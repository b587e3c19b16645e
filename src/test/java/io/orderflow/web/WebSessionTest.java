package io.orderflow.web;

import static io.orderflow.web.WebCheckoutTest.command;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.SignInForm;
import io.orderflow.support.TestServers;
import io.orderflow.web.WebCheckoutTest.Browser;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * A web session is bound to its sign-in: the CSRF token of its forms is signed by the service for the
 * session, so a csrf-token cookie planted from elsewhere (a sibling subdomain, a man in the middle on
 * plain HTTP) with the token that goes with it in another session forges nothing. Signing in gives the
 * browser new session cookies; "Sign out", a form on every signed-in page, ends the session on the
 * server, so that a copy of its cookies opens nothing afterwards.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class WebSessionTest {

    private static final String SESSION = "quarkus-credential";
    private static final String CSRF = "csrf-token";
    private static final String SIGN_OUT_FORM = "<form method=\"post\" action=\"/logout\"";

    @Test
    void aCsrfCookiePlantedFromAnotherSessionWithThatSessionsTokenIsRefusedAndNothingIsDone() {
        SignedIn alice = signIn("alice");
        String page = alice.placeNotebook();
        String id = page.substring(page.lastIndexOf('/') + 1);
        String cancel = command(alice.get(page), "cancel");

        // Mallory signs in as bob and plants bob's csrf-token cookie in alice's browser, then makes it post bob's token.
        SignedIn bob = signIn("bob");
        Response bobsPage = bob.get("/checkout");
        String bobsToken = formToken(bobsPage);
        Response planted = given().redirects().follow(false).cookie(SESSION, alice.cookie(SESSION)).cookie(CSRF, bob.cookieAfter(bobsPage, CSRF))
                .formParam(CSRF, bobsToken).formParam("commandId", cancel).post(page + "/cancel");
        assertThat(planted.statusCode()).as("answer to a planted cookie: %s", planted.asString()).isEqualTo(403);

        // A cookie from the sign-in page of a browser that never signed in, with the token that page showed, forges nothing either.
        Response strangersPage = given().get("/login");
        String strangersCookie = SetCookies.of(strangersPage, CSRF).get("=");
        Matcher action = SignInForm.ACTION.matcher(strangersPage.asString());
        assertThat(action.find()).isTrue();
        String strangersToken = action.group(1).substring(action.group(1).indexOf('=') + 1);
        Response prePlanted = given().redirects().follow(false).cookie(SESSION, alice.cookie(SESSION)).cookie(CSRF, strangersCookie)
                .formParam(CSRF, strangersToken).formParam("commandId", cancel).post(page + "/cancel");
        assertThat(prePlanted.statusCode()).as("answer to a planted sign-in cookie: %s", prePlanted.asString()).isEqualTo(403);

        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("created");
    }

    @Test
    void afterSignOutACopyOfTheSessionCookiesOpensNothing() {
        SignedIn alice = signIn("alice");
        Response checkout = alice.get("/checkout");
        checkout.then().statusCode(200);
        String copiedSession = alice.cookie(SESSION);
        String copiedCsrf = alice.cookie(CSRF);

        Response signedOut = alice.request().formParam(CSRF, formToken(checkout)).post("/logout");

        signedOut.then().statusCode(303).header("Location", endsWith("/login?signed-out=true"));
        given().get("/login?signed-out=true").then().statusCode(200).body(containsString("You are signed out."));
        assertThat(SetCookies.of(signedOut, SESSION)).as("the session cookie").containsEntry("=", "").containsEntry("max-age", "0");
        assertThat(SetCookies.of(signedOut, CSRF)).as("the csrf-token cookie").containsEntry("=", "").containsEntry("max-age", "0");
        for (RequestSpecification replay : List.of(given().cookie(SESSION, copiedSession).cookie(CSRF, copiedCsrf),
                given().cookie(SESSION, copiedSession))) {
            replay.redirects().follow(false).get("/checkout").then().statusCode(303).header("Location", endsWith("/login"));
        }
        given().redirects().follow(false).cookie(SESSION, copiedSession).cookie(CSRF, copiedCsrf).get("/checkout/orders")
                .then().statusCode(303).header("Location", endsWith("/login"));
    }

    @Test
    void signingOutEndsOnlyThatSession() {
        SignedIn here = signIn("alice");
        SignedIn there = signIn("alice");
        here.request().formParam(CSRF, formToken(here.get("/checkout"))).post("/logout").then().statusCode(303);

        there.get("/checkout").then().statusCode(200);
        here.request().get("/checkout").then().statusCode(302).header("Location", containsString("/login"));
    }

    @Test
    void aSignOutWithoutTheSessionsTokenIsRefusedAndTheSessionGoesOn() {
        SignedIn alice = signIn("alice");
        alice.get("/checkout").then().statusCode(200);

        alice.request().post("/logout").then().statusCode(403);
        alice.request().formParam(CSRF, "AAAAAAAAAAAAAAAAAAAAAA").post("/logout").then().statusCode(403);

        alice.get("/checkout").then().statusCode(200);
    }

    @Test
    void signingInGivesTheBrowserNewSessionCookies() {
        SignedIn alice = signIn("alice");
        String session = alice.cookie(SESSION);
        String csrf = alice.cookie(CSRF);

        Response again = SignInForm.signIn(alice.cookies, "alice", "alice");

        again.then().statusCode(302);
        assertThat(SetCookies.of(again, SESSION).get("=")).isNotBlank().isNotEqualTo(session);
        assertThat(SetCookies.of(again, CSRF).get("=")).isNotBlank().isNotEqualTo(csrf);
        // A session cookie planted before sign-in is replaced as well (the sign-in page replaces any csrf-token cookie itself).
        Response planted = SignInForm.signIn(given().cookie(SESSION, session), new CookieFilter(), "bob", "bob");
        assertThat(SetCookies.of(planted, SESSION).get("=")).isNotBlank().isNotEqualTo(session);
    }

    @Test
    void everySignedInPageHasTheSignOutFormAndTheSignInPageHasNone() {
        SignedIn alice = signIn("alice");
        String order = alice.placeNotebook();

        for (String page : List.of("/checkout", "/checkout/orders", order)) {
            String html = alice.get(page).asString();
            assertThat(html).as(page).contains(SIGN_OUT_FORM).contains("name=\"csrf-token\" value=\"" + formToken(alice.get(page)) + "\"");
        }
        assertThat(given().get("/login").asString()).doesNotContain(SIGN_OUT_FORM);
    }

    /**
     * No cache keeps a signed-in page (a shared computer's back button shows none after sign-out) nor the sign-in page,
     * whose token is drawn for it; only the checkout's form is kept, by the browser alone, so that the back button
     * brings back the very order token it was submitted with.
     */
    @Test
    void signedInPagesAreStoredByNoCacheAndTheCheckoutFormByTheBrowserAlone() {
        SignedIn alice = signIn("alice");
        String order = alice.placeNotebook();

        for (String page : List.of("/checkout/orders", order, order + "-missing")) {
            assertThat(alice.get(page).header("Cache-Control")).as(page).isEqualTo("no-store");
        }
        assertThat(given().get("/login").header("Cache-Control")).isEqualTo("no-store");
        assertThat(alice.get("/checkout").header("Cache-Control")).isEqualTo("private, no-cache");
    }

    /** A link to an order opened while signed out leads, through the sign-in form, to that order. */
    @Test
    void signingInReturnsToThePageAskedFor() {
        String order = WebCheckoutTest.placeNotebook(WebCheckoutTest.browser("alice"));
        String path = URI.create(order).getPath();
        CookieFilter cookies = new CookieFilter();
        given().filter(cookies).redirects().follow(false).get(path).then().statusCode(302).header("Location", containsString("/login"));

        Response signedIn = SignInForm.signIn(cookies, "alice", "alice");
        signedIn.then().statusCode(302).header("Location", endsWith(path));
        given().filter(cookies).redirects().follow(false).get(path).then().statusCode(200);
    }

    @Test
    void aSignInPostedFromAnotherSiteSignsNobodyIn() {
        CookieFilter cookies = new CookieFilter();
        String action = SignInForm.action(given(), cookies);

        for (Map.Entry<String, String> sign : Map.of("Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site").entrySet()) {
            Response answer = given().filter(cookies).redirects().follow(false).header(sign.getKey(), sign.getValue())
                    .formParam("j_username", "bob").formParam("j_password", "bob").post(action);
            assertThat(answer.statusCode()).as(sign.toString()).isEqualTo(403);
            assertThat(SetCookies.of(answer, SESSION)).as(sign.toString()).isNull();
        }
    }

    /** The CSRF token of a page's forms. */
    private static String formToken(Response page) {
        Matcher token = WebCheckoutTest.CSRF.matcher(page.asString());
        assertThat(token.find()).as("a CSRF token on the page").isTrue();
        return token.group(1);
    }

    private static SignedIn signIn(String user) {
        CookieFilter cookies = new CookieFilter();
        Response signedIn = SignInForm.signIn(cookies, user, user);
        signedIn.then().statusCode(302);
        return new SignedIn(cookies, Map.of(SESSION, SetCookies.of(signedIn, SESSION).get("="), CSRF, SetCookies.of(signedIn, CSRF).get("=")));
    }

    /** A signed-in browser and the cookies its sign-in set. */
    private record SignedIn(CookieFilter cookies, Map<String, String> set) {

        String cookie(String name) {
            return set.get(name);
        }

        /** The cookie as the browser holds it after the page: the page's own, if it set one. */
        String cookieAfter(Response page, String name) {
            Map<String, String> set = SetCookies.of(page, name);
            return set == null ? cookie(name) : set.get("=");
        }

        RequestSpecification request() {
            return given().filter(cookies).redirects().follow(false);
        }

        Response get(String path) {
            return request().get(path);
        }

        String placeNotebook() {
            Browser browser = new Browser(cookies);
            return URI.create(WebCheckoutTest.placeNotebook(browser)).getPath();
        }
    }
}
