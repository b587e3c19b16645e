package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.orderflow.web.WebCheckoutTest.browser;
import static io.orderflow.web.WebCheckoutTest.command;
import static io.orderflow.web.WebCheckoutTest.placeNotebook;
import static io.orderflow.web.WebCheckoutTest.submit;
import static io.orderflow.web.WebCheckoutTest.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;

import io.orderflow.support.SignInForm;
import io.orderflow.support.Api;
import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.web.WebCheckoutTest.Browser;
import io.orderflow.web.WebCheckoutTest.Item;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * Every form of the web pages, the sign-in form included, is accepted only with the CSRF token the
 * service signed for the browser's csrf-token cookie (sign-in) or its session (see WebSessionTest);
 * without it, or with another one, the answer is a page that says what to do and nothing changes.
 * The API, which takes JSON or no body, carries no token.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class CsrfTest {

    /** A token of the right shape that is not the cookie's. */
    private static final String FORGED = "AAAAAAAAAAAAAAAAAAAAAA";
    /** An order's status, version and history size. */
    private static final String STATE = "SELECT status || '/' || version || '/' || (SELECT count(*) FROM order_history h WHERE h.order_id = o.id) "
            + "FROM orders o WHERE id = ?";

    @Test
    void aCheckoutPostWithoutTheTokenOrWithAnotherIsRefusedWithAPageAndOrdersNothing() {
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));
        Item notebooks = new Item("ABC-1", "2", "12.50");

        for (String path : List.of("/checkout", "/checkout/review")) {
            for (RequestSpecification forged : List.of(alice.request(), alice.request().formParam("csrf-token", FORGED),
                    alice.request().formParam("csrf-token", ""))) {
                refused(forged.formParam("token", token).formParam("sku", notebooks.sku()).formParam("quantity", notebooks.quantity())
                        .formParam("unitPrice", notebooks.shownPrice()).formParam("currency", "CNY").post(path), "/checkout");
            }
        }
        assertThat(Orders.countForToken(token)).isZero();

        // The refusals spent nothing: the form with its token places its order.
        submit(alice, token, notebooks).then().statusCode(303);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void anOrderActionWithoutTheTokenOrWithAnotherIsRefusedWithAPageAndDoesNothing() {
        Browser alice = browser("alice");
        String page = URI.create(placeNotebook(alice)).getPath();
        String id = page.substring(page.lastIndexOf('/') + 1);
        Response shown = alice.get(page);
        String before = Orders.value(STATE, id);

        for (String action : List.of("pay", "cancel")) {
            String commandId = command(shown, action);
            refused(alice.request().formParam("commandId", commandId).post(page + "/" + action), page);
            refused(alice.request().formParam("commandId", commandId).formParam("csrf-token", FORGED).post(page + "/" + action), page);
        }
        assertThat(Ledger.of(id).charges()).isZero();
        assertThat(Orders.value(STATE, id)).isEqualTo(before).startsWith("created/");

        alice.form().formParam("commandId", command(shown, "pay")).post(page + "/pay").then().statusCode(303);
        Browser ops = browser("ops");
        String shipCommand = command(ops.get(page), "ship");
        refused(ops.request().formParam("commandId", shipCommand).post(page + "/ship"), page);
        refused(ops.request().formParam("commandId", shipCommand).formParam("csrf-token", FORGED).post(page + "/ship"), page);
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("paid");
        ops.form().formParam("commandId", shipCommand).post(page + "/ship").then().statusCode(303);
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("shipped");
    }

    @Test
    void aSignInWithoutTheTokenOrWithAnotherSignsNobodyIn() {
        CookieFilter cookies = new CookieFilter();
        String action = SignInForm.action(given(), cookies);
        String forged = action.replaceAll("csrf-token=.*", "csrf-token=" + FORGED);

        // The right password is checked only after the token: these are refused before form authentication runs.
        for (String target : List.of("/j_security_check", forged, "/j_security_check?csrf-token=", action + "&csrf-token=" + FORGED)) {
            Response answer = given().filter(cookies).redirects().follow(false).formParam("j_username", "alice").formParam("j_password", "alice")
                    .post(target);
            refused(answer, "/login");
            assertThat(SetCookies.of(answer, "quarkus-credential")).as("a session cookie for %s", target).isNull();
        }
        given().filter(cookies).redirects().follow(false).get("/checkout").then().statusCode(302).header("Location", containsString("/login"));

        given().filter(cookies).redirects().follow(false).formParam("j_username", "alice").formParam("j_password", "alice").post(action)
                .then().statusCode(302).header("Location", containsString("/checkout"));
        given().filter(cookies).redirects().follow(false).get("/checkout").then().statusCode(200);
    }

    @Test
    void aSignInPostedFromAnotherSiteSignsNobodyIn() {
        // The attacker's own sign-in form and token, posted by the victim's browser with the attacker's password.
        String attackersAction = SignInForm.action(given(), new CookieFilter());
        CookieFilter victim = new CookieFilter();
        given().filter(victim).get("/login").then().statusCode(200);

        Response answer = given().filter(victim).redirects().follow(false).formParam("j_username", "bob").formParam("j_password", "bob")
                .post(attackersAction);
        refused(answer, "/login");
        assertThat(SetCookies.of(answer, "quarkus-credential")).isNull();
        given().filter(victim).redirects().follow(false).get("/checkout/orders").then().statusCode(302)
                .header("Location", containsString("/login"));
        // A browser that never saw the site sends no csrf-token cookie at all.
        refused(given().redirects().follow(false).formParam("j_username", "bob").formParam("j_password", "bob").post(attackersAction), "/login");
    }

    @Test
    void signingInGivesTheSessionAFreshToken() {
        CookieFilter cookies = new CookieFilter();
        String action = SignInForm.action(given(), cookies);
        String before = action.substring(action.indexOf("csrf-token=") + "csrf-token=".length());
        Response signedIn = given().filter(cookies).redirects().follow(false).formParam("j_username", "alice").formParam("j_password", "alice")
                .post(action);
        // The session's own cookie: its id, when it signed in, and the service's signature of both with the principal.
        assertThat(SetCookies.of(signedIn, "csrf-token")).containsKey("httponly").containsEntry("samesite", "Strict")
                .hasEntrySatisfying("=", value -> assertThat(value).matches("[A-Za-z0-9_-]{22}\\.[0-9]+\\.[A-Za-z0-9_-]{43}"));

        Matcher after = WebCheckoutTest.CSRF.matcher(given().filter(cookies).get("/checkout").asString());
        assertThat(after.find()).isTrue();
        assertThat(after.group(1)).isNotEqualTo(before);
    }

    /** The sign-in page mints its own value: one planted in the browser (well formed, as a sibling subdomain could set it) is never signed. */
    @Test
    void aCsrfCookiePlantedBeforeSignInIsReplacedAndItsFormRefused() {
        String planted = "plantedByAnotherSite_0A";
        Response page = given().redirects().follow(false).cookie("csrf-token", planted).get("/login");
        String minted = SetCookies.of(page, "csrf-token").get("=");
        assertThat(minted).matches("[A-Za-z0-9_-]{22}").isNotEqualTo(planted);
        Matcher action = SignInForm.ACTION.matcher(page.asString());
        assertThat(action.find()).isTrue();

        Response withPlanted = given().redirects().follow(false).cookie("csrf-token", planted)
                .formParam("j_username", "alice").formParam("j_password", "alice").post(action.group(1));
        refused(withPlanted, "/login");
        assertThat(SetCookies.of(withPlanted, "quarkus-credential")).isNull();
        given().redirects().follow(false).cookie("csrf-token", minted).formParam("j_username", "alice").formParam("j_password", "alice")
                .post(action.group(1)).then().statusCode(302).header("Location", containsString("/checkout"));
    }

    @Test
    void aBrokenCsrfCookieIsReplacedByAFreshToken() {
        Response page = given().redirects().follow(false).cookie("csrf-token", "not-a-token").get("/login");
        page.then().statusCode(200);
        String fresh = SetCookies.of(page, "csrf-token").get("=");
        assertThat(fresh).matches("[A-Za-z0-9_-]{22}");
        // The form carries the service's signature of the cookie, not the cookie itself.
        Matcher action = SignInForm.ACTION.matcher(page.asString());
        assertThat(action.find()).isTrue();
        assertThat(action.group(1)).matches("/j_security_check\\?csrf-token=[A-Za-z0-9_-]{43}").doesNotContain(fresh);
    }

    @Test
    void theApiTakesJsonAndBodilessPostsWithoutAToken() {
        String id = Api.newOrder("alice");
        as("alice").post("/orders/{id}/cancel", id).then().statusCode(200);
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("cancelled");
    }

    @Test
    void aPostToThePagesThatIsNoFormIsRefusedWithAPageAndAnUnreadableTypeByTheApiWithAProblem() {
        Browser alice = browser("alice");
        String page = URI.create(placeNotebook(alice)).getPath();
        String id = page.substring(page.lastIndexOf('/') + 1);
        String commandId = command(alice.get(page), "cancel");
        String before = Orders.value(STATE, id);

        byte[] form = ("csrf-token=" + alice.csrfToken() + "&commandId=" + commandId).getBytes(StandardCharsets.UTF_8);
        for (String contentType : List.of("json", "text/plain", "application/json", ";")) {
            refused(alice.request().contentType(contentType).body(form).post(page + "/cancel"), page);
        }
        refused(alice.request().post(page + "/cancel"), page);
        assertThat(Orders.value(STATE, id)).isEqualTo(before);

        for (String contentType : List.of("json", ";")) {
            as("alice").contentType(contentType).body("{}".getBytes(StandardCharsets.UTF_8)).post("/orders/token").then().statusCode(415)
                    .contentType("application/problem+json").body("code", org.hamcrest.Matchers.equalTo("unsupported-media-type"));
        }
    }

    @Test
    void theCookiesAreHttpOnlyAndSameSiteAndNotSecureOverPlainHttp() {
        CookieFilter cookies = new CookieFilter();
        Response login = given().filter(cookies).get("/login");
        Map<String, String> csrf = SetCookies.of(login, "csrf-token");
        assertThat(csrf).containsKey("httponly").containsEntry("samesite", "Lax").containsEntry("path", "/").doesNotContainKey("secure");

        Response signedIn = SignInForm.signIn(cookies, "alice", "alice");
        Map<String, String> session = SetCookies.of(signedIn, "quarkus-credential");
        assertThat(session).containsKey("httponly").containsEntry("samesite", "Strict").doesNotContainKey("secure");
    }

    /** The refusal page: a 403 in HTML saying what happened and what to do, leading back to the form's page. */
    private static void refused(Response answer, String back) {
        answer.then().statusCode(403)
                .contentType(containsString("text/html"))
                .header("Cache-Control", "no-store")
                .body(containsString("did not come from this site, so nothing was done"))
                .body(containsString("Reload the page"))
                .body(containsString("<a href=\"" + back + "\" id=\"back\">"))
                .body(not(containsString("Exception")));
    }
}
