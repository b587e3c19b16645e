package io.orderflow.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** The web checkout as a browser uses it: sign in, fill the cart, submit (again), act on the order's page. */
@QuarkusTest
@WithTestResource(TestServers.class)
class WebCheckoutTest {

    private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");
    private static final Pattern COMMAND = Pattern.compile("action=\"/checkout/orders/[^/]+/(\\w+)\">\\s*<input type=\"hidden\" name=\"commandId\" value=\"([^\"]+)\"");

    @Inject
    RedisDataSource redis;

    @Inject
    RedisKeys keys;

    @Test
    void signingInLeadsToTheCheckoutForm() {
        given().redirects().follow(false).get("/").then().statusCode(303).header("Location", containsString("/checkout"));
        given().redirects().follow(false).get("/checkout").then().statusCode(302).header("Location", containsString("/login"));
        given().get("/login").then().statusCode(200).body(containsString("j_security_check"));

        browser("alice").get("/checkout").then()
                .statusCode(200)
                .header("Cache-Control", "private, no-cache")
                .body(containsString("name=\"token\""))
                .body(containsString("Place order"));
    }

    @Test
    void aWrongPasswordShowsTheSignInFormAgain() {
        Response refused = given().redirects().follow(false).formParam("j_username", "alice").formParam("j_password", "nope")
                .post("/j_security_check");
        refused.then().statusCode(302).header("Location", containsString("/login?error=true"));
    }

    @Test
    void submittingTheSameFormTwiceEndsOnOneOrdersPage() {
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));

        List<Response> submissions = Parallel.run(2, () -> submit(alice, token, "ABC-1", "2", "12.50"));
        Response again = submit(alice, token, "ABC-1", "2", "12.50");

        String location = submissions.get(0).header("Location");
        assertThat(location).contains("/checkout/orders/");
        assertThat(submissions).extracting(Response::statusCode).containsOnly(303);
        assertThat(submissions.get(1).header("Location")).isEqualTo(location);
        assertThat(again.statusCode()).isEqualTo(303);
        assertThat(again.header("Location")).isEqualTo(location);
        assertThat(Orders.countForToken(token)).isEqualTo(1);

        alice.get(location).then().statusCode(200)
                .body(containsString("<span class=\"status\" id=\"status\">created</span>"))
                .body(containsString("25.00 CNY"))
                .body(containsString(">Pay<"));
    }

    @Test
    void mistakesAreShownBesideTheirFieldsAndNothingIsOrdered() {
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));

        Response refused = submit(alice, token, "ABC 1", "two", "12.50");
        refused.then().statusCode(400).contentType(containsString("text/html"))
                .body(containsString("Enter a whole number."))
                .body(containsString("Must be 1 to 64 letters"))
                .body(containsString("value=\"ABC 1\""))
                .body(containsString("value=\"" + token + "\""));
        assertThat(Orders.countForToken(token)).isZero();

        Response invalidSku = submit(alice, token, "<b>ABC</b>", "2", "12.50");
        invalidSku.then().statusCode(400)
                .body(containsString("Must be 1 to 64 letters"))
                .body(containsString("value=\"&lt;b&gt;ABC&lt;/b&gt;\""))
                .body(not(containsString("<b>ABC")));

        submit(alice, token, "ABC-1", "2", "12.50").then().statusCode(303);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void anExpiredFormIsShownAgainWithAFreshTokenAndTheCartKept() {
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));
        redis.key().del(keys.ofPrincipal("alice", "token:" + Hashing.sha256Hex(token)));

        Response expired = submit(alice, token, "XYZ-9", "3", "4.20");
        expired.then().statusCode(200).body(containsString("This form had expired")).body(containsString("value=\"XYZ-9\""));
        String fresh = token(expired);
        assertThat(fresh).isNotEqualTo(token);

        submit(alice, fresh, "XYZ-9", "3", "4.20").then().statusCode(303);
    }

    @Test
    void theOrdersPageOffersTheActionsAllowedNowAndEachIsSafeTwice() {
        Browser alice = browser("alice");
        String page = submit(alice, token(alice.get("/checkout")), "ABC-1", "1", "9.99").header("Location");
        String id = page.substring(page.lastIndexOf('/') + 1);

        Response shown = alice.get(page);
        shown.then().body(not(containsString(">Ship<")));
        String payCommand = command(shown, "pay");
        alice.request().formParam("commandId", payCommand).post(page + "/pay").then().statusCode(303)
                .header("Location", containsString(page));
        alice.request().formParam("commandId", payCommand).post(page + "/pay").then().statusCode(303);
        assertThat(Ledger.of(id).charges()).isEqualTo(1);

        Browser ops = browser("ops");
        ops.get(page).then().body(containsString(">Ship<")).body(containsString("pay: created → paid"));
        browser("bob").get(page).then().statusCode(404);
    }

    @Test
    void theOrdersPageOffersTheSandboxPaymentMethodsAndADeclineLeavesItOpen() {
        Browser alice = browser("alice");
        String page = submit(alice, token(alice.get("/checkout")), "ABC-1", "1", "9.99").header("Location");
        String id = page.substring(page.lastIndexOf('/') + 1);
        Response shown = alice.get(page);
        shown.then().body(containsString("<option value=\"pm_card_visa\">")).body(containsString("<option value=\"pm_card_chargeDeclined\">"));

        alice.request().formParam("commandId", command(shown, "pay")).formParam("paymentMethod", "pm_card_chargeDeclined")
                .post(page + "/pay").then().statusCode(303).header("Location", containsString("notice=payment-declined"));
        alice.get(page + "?notice=payment-declined").then().body(containsString("Your payment was declined"))
                .body(containsString("<span class=\"status\" id=\"status\">created</span>"));

        alice.request().formParam("commandId", command(alice.get(page), "pay")).formParam("paymentMethod", "pm_card_visa")
                .post(page + "/pay").then().statusCode(303);
        alice.get(page).then().body(containsString("<span class=\"status\" id=\"status\">paid</span>"));
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
        assertThat(Orders.value("SELECT count(*) FROM payments WHERE order_id = ?", id)).isEqualTo("2");
    }

    @Test
    void aCommandIdOutsideTheKeyLimitsIsRefusedWithAPageAndNothingIsDone() {
        Browser alice = browser("alice");
        String page = submit(alice, token(alice.get("/checkout")), "ABC-1", "1", "9.99").header("Location");
        String id = page.substring(page.lastIndexOf('/') + 1);

        for (String commandId : List.of("x".repeat(256), "", "two words", "\"unterminated")) {
            alice.request().formParam("commandId", commandId).post(page + "/pay").then()
                    .statusCode(400)
                    .contentType(containsString("text/html"))
                    .body(containsString("Nothing was done"))
                    .body(containsString(">Pay<"));
        }
        alice.request().post(page + "/cancel").then().statusCode(400).body(containsString("Nothing was done"));
        assertThat(Ledger.of(id).charges()).isZero();
        alice.get(page).then().body(containsString("<span class=\"status\" id=\"status\">created</span>"));

        // The same limits as the Idempotency-Key header: a quoted command id counts by its unquoted value.
        String longest = "y".repeat(255);
        alice.request().formParam("commandId", "\"" + longest + "\"").post(page + "/pay").then().statusCode(303);
        assertThat(Orders.value("SELECT command_id FROM order_history WHERE order_id = ?", id)).isEqualTo(longest);
    }

    /** A signed-in browser (form login, session cookie); each request starts from a fresh specification. */
    private record Browser(CookieFilter cookies) {
        RequestSpecification request() {
            return given().filter(cookies).redirects().follow(false);
        }

        Response get(String path) {
            return request().get(path);
        }
    }

    private static Browser browser(String user) {
        CookieFilter cookies = new CookieFilter();
        given().filter(cookies).redirects().follow(false).formParam("j_username", user).formParam("j_password", user)
                .post("/j_security_check").then().statusCode(302);
        return new Browser(cookies);
    }

    private static Response submit(Browser browser, String token, String sku, String quantity, String unitPrice) {
        return browser.request().formParam("token", token).formParam("currency", "CNY")
                .formParam("sku", sku, "", "").formParam("quantity", quantity, "", "").formParam("unitPrice", unitPrice, "", "")
                .post("/checkout");
    }

    private static String token(Response page) {
        Matcher token = TOKEN.matcher(page.asString());
        assertThat(token.find()).as("a token in the form").isTrue();
        return token.group(1);
    }

    private static String command(Response page, String action) {
        Matcher command = COMMAND.matcher(page.asString());
        while (command.find()) {
            if (command.group(1).equals(action)) {
                return command.group(2);
            }
        }
        throw new AssertionError("no " + action + " form on the page");
    }
}
