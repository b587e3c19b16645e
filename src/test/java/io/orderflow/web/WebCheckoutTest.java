package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.support.Api;
import io.orderflow.support.Ledger;
import io.orderflow.support.Orders;
import io.orderflow.support.Parallel;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** The web checkout as a browser uses it: sign in, choose from the catalog, submit (again), act on the order's page. */
@QuarkusTest
@WithTestResource(TestServers.class)
class WebCheckoutTest {

    private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");
    static final Pattern CSRF = Pattern.compile("name=\"csrf-token\" value=\"([^\"]+)\"");
    private static final Pattern COMMAND = Pattern.compile("action=\"/(?:checkout|console)/orders/[^/]+/(\\w+)\">\\s*<input type=\"hidden\" name=\"commandId\" value=\"([^\"]+)\"");
    /** How the pages write a time, e.g. "30 Nov 2026, 10:05 UTC". */
    /** The delivery address the tests' browsers post, as a customer fills it in. */
    static final Map<String, String> ADDRESS = Map.of("addressName", "Han Meimei", "addressLine1", "Room 5, 77 Wulumuqi Road",
            "addressLine2", "", "addressCity", "Shanghai", "addressRegion", "Shanghai", "addressPostalCode", "200031", "addressCountry", "CN",
            "addressPhone", "+86 21 5555 0199");
    private static final String READABLE_TIME = "\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2} UTC";

    @Inject
    RedisDataSource redis;

    @Inject
    RedisKeys keys;

    @Test
    void signingInLeadsToTheCatalogAsACart() {
        given().redirects().follow(false).get("/").then().statusCode(303).header("Location", containsString("/checkout"));
        given().redirects().follow(false).get("/checkout").then().statusCode(302).header("Location", containsString("/login"));
        given().get("/login").then().statusCode(200).body(containsString("j_security_check"));

        Response page = browser("alice").get("/checkout");
        page.then()
                .statusCode(200)
                .header("Cache-Control", "private, no-cache")
                .body(containsString("name=\"token\""))
                .body(containsString("<h2>Notebook</h2>"))
                .body(containsString("A5 notebook, 96 dotted pages"))
                .body(containsString("12.50 CNY"))
                .body(containsString("<label for=\"quantity-ABC-1\">Quantity<span class=\"visually-hidden\"> of Notebook</span></label>"))
                .body(containsString("id=\"quantity-ABC-1\" name=\"quantity\" value=\"\" type=\"number\" min=\"0\" max=\"1000\""))
                .body(not(containsString("Wall calendar 2025")))
                .body(containsString("Review total"))
                .body(containsString("Place order"))
                .body(containsString("<script src=\"/assets/checkout.js\" defer></script>"))
                .body(not(containsString("<script>")));
        assertThat(shownPrice(page, "ABC-1")).isEqualTo("12.50");
        given().get("/assets/checkout.js").then().statusCode(200).body(containsString("cart-total"));
        given().get("/favicon.ico").then().statusCode(200).contentType(containsString("icon"));
    }

    @Test
    void theFormOffersTheCustomersSavedAddressAndTheOrderGoesToTheOneTypedWhichIsKeptForNextTime() {
        String customer = "shopper-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(customer, "customer");
        Browser shopper = browser(customer);
        Response form = shopper.get("/checkout");
        form.then().statusCode(200)
                .body(containsString("<legend>Deliver to</legend>"))
                .body(containsString("id=\"address-name\" name=\"addressName\" value=\"" + customer + "\" autocomplete=\"shipping name\""))
                .body(containsString("<option value=\"CN\" selected>China</option>"));

        Map<String, String> moved = new HashMap<>(ADDRESS);
        moved.put("addressLine2", "Building 2 <east gate>");
        String page = post(shopper, "/checkout", token(form), moved, new Item("ABC-1", "1", shownPrice(form, "ABC-1")))
                .then().statusCode(303).extract().header("Location");

        shopper.get(page).then().statusCode(200)
                .body(containsString("<address id=\"shipping-address\">"))
                .body(containsString("Han Meimei<br>"))
                .body(containsString("Building 2 &lt;east gate&gt;<br>"))
                .body(containsString("Shanghai, Shanghai 200031<br>"))
                .body(containsString("China<br>+86 21 5555 0199"));
        shopper.get("/checkout").then().statusCode(200)
                .body(containsString("name=\"addressLine2\" value=\"Building 2 &lt;east gate&gt;\""));
    }

    @Test
    void aWrongAddressIsMarkedBesideEachFieldAndListedAtTheTopWithLinksAndNothingIsOrdered() {
        Browser alice = browser("alice");
        Response form = alice.get("/checkout");
        String token = token(form);
        Map<String, String> wrong = new HashMap<>(ADDRESS);
        wrong.put("addressName", " ");
        wrong.put("addressCountry", "ZZ");
        wrong.put("addressPhone", "call me");

        Response answer = post(alice, "/checkout", token, wrong, new Item("ABC-1", "abc", shownPrice(form, "ABC-1")));
        answer.then().statusCode(400).body(containsString("<li><a href=\"#quantity-ABC-1\">Notebook: Enter a whole number"));

        answer = post(alice, "/checkout", token, wrong, new Item("ABC-1", "1", shownPrice(form, "ABC-1")));
        answer.then().statusCode(400)
                .body(containsString("<li><a href=\"#address-name\">Full name: Is required.</a></li>"))
                .body(containsString("<li><a href=\"#address-country\">Country: Is not an ISO 3166-1 country code.</a></li>"))
                .body(containsString("<a href=\"#address-phone\">Phone: Must be 5 to 25 digits"))
                .body(containsString("aria-invalid=\"true\" aria-describedby=\"error-address-name\">"))
                .body(containsString("<p class=\"error\" id=\"error-address-name\">Is required.</p>"))
                .body(containsString("name=\"addressPhone\" value=\"call me\""))
                .body(containsString("name=\"addressLine1\" value=\"Room 5, 77 Wulumuqi Road\""))
                .body(containsString("value=\"1\" type=\"number\""));
        assertThat(Orders.countForToken(token)).isZero();

        submit(alice, token, new Item("ABC-1", "1", shownPrice(form, "ABC-1"))).then().statusCode(303);
    }

    @Test
    void aPaidOrdersPageIsItsReceiptAndOnceCancelledItTellsWhereTheRefundStands() {
        Browser alice = browser("alice");
        String page = placeNotebook(alice);
        alice.form().formParam("commandId", command(alice.get(page), "pay")).post(page + "/pay").then().statusCode(303);

        alice.get(page).then().statusCode(200)
                .body(containsString("<h2 id=\"receipt-heading\">Receipt</h2>"))
                .body(matchesPattern("(?s).*<p>Paid 12\\.50 CNY on <time datetime=\"[^\"]+\">" + READABLE_TIME + "</time>. Keep this page as your receipt.</p>.*"))
                .body(not(containsString("id=\"refund\"")));

        String cancel = command(alice.get(page), "cancel");
        alice.form().formParam("commandId", cancel).formParam("confirmed", "yes").post(page + "/cancel").then().statusCode(303);

        alice.get(page).then().statusCode(200)
                .body(containsString("<p id=\"refund\" class=\"message\" role=\"status\">Your refund of 12.50 CNY has been made.</p>"))
                .body(not(containsString("receipt-heading")));
    }

    @Test
    void staffSeeWhoOrderedOnTheOrdersPagesAndCustomersAreNotToldTheirOwnName() {
        String page = placeNotebook(browser("alice"));
        Browser ops = browser("ops");

        ops.get(page).then().statusCode(200).body(containsString("<p id=\"customer\">Customer: alice</p>"));
        ops.get("/checkout/orders").then().statusCode(200).body(containsString("<th>Customer</th>"))
                .body(containsString("<td class=\"customer\">alice</td>"));
        Browser alice = browser("alice");
        alice.get(page).then().statusCode(200).body(not(containsString("id=\"customer\"")));
        alice.get("/checkout/orders").then().statusCode(200).body(not(containsString("<th>Customer</th>")));
    }

    @Test
    void aWrongPasswordShowsTheSignInFormAgain() {
        signIn(new CookieFilter(), "alice", "nope").then().statusCode(302).header("Location", containsString("/login?error=true"));
    }

    @Test
    void submittingTheSameFormTwiceEndsOnOneOrdersPage() {
        Browser alice = browser("alice");
        Response form = alice.get("/checkout");
        String token = token(form);
        Item notebooks = new Item("ABC-1", "2", shownPrice(form, "ABC-1"));

        List<Response> submissions = Parallel.run(2, () -> submit(alice, token, notebooks));
        Response again = submit(alice, token, notebooks);

        String location = submissions.get(0).header("Location");
        assertThat(location).contains("/checkout/orders/");
        assertThat(submissions).extracting(Response::statusCode).containsOnly(303);
        assertThat(submissions.get(1).header("Location")).isEqualTo(location);
        assertThat(again.statusCode()).isEqualTo(303);
        assertThat(again.header("Location")).isEqualTo(location);
        assertThat(Orders.countForToken(token)).isEqualTo(1);

        alice.get(location).then().statusCode(200)
                .body(containsString("<span class=\"status\" id=\"status\">created</span>"))
                .body(containsString("<span id=\"total\">25.00 CNY</span>"))
                .body(containsString(">Pay<"))
                .body(containsString("<a href=\"/checkout/orders\">My orders</a>"));
    }

    /** The form posts four fields for every product on sale; a catalog of a thousand products still checks out. */
    @Test
    void aFormOfAThousandProductsIsTakenWhole() {
        Browser alice = browser("alice");
        Response form = alice.get("/checkout");
        List<Item> lines = new ArrayList<>();
        lines.add(new Item("ABC-1", "1", shownPrice(form, "ABC-1")));
        for (int i = 1; i < 1000; i++) {
            lines.add(new Item("NOT-CHOSEN-" + i, "0", "1.00"));
        }

        submit(alice, token(form), lines.toArray(Item[]::new)).then().statusCode(303).header("Location", containsString("/checkout/orders/"));
    }

    @Test
    void reviewingShowsTheLinesAndTotalKeepsTheCartAndOrdersNothing() {
        Browser alice = browser("alice");
        Response form = alice.get("/checkout");
        String token = token(form);
        Item notebooks = new Item("ABC-1", "2", shownPrice(form, "ABC-1"));

        Response reviewed = post(alice, "/checkout/review", token, notebooks);
        reviewed.then().statusCode(200)
                .body(containsString("<td>Notebook</td><td class=\"amount\">2</td><td class=\"amount\">12.50 CNY</td><td class=\"amount\">25.00 CNY</td>"))
                .body(containsString("<td class=\"amount\" id=\"reviewed-total\">25.00 CNY</td>"))
                .body(containsString("id=\"quantity-ABC-1\" name=\"quantity\" value=\"2\""))
                .body(containsString("Place order"));
        assertThat(token(reviewed)).isEqualTo(token);
        assertThat(Orders.countForToken(token)).isZero();

        String orderPage = submit(alice, token, notebooks).then().statusCode(303).extract().header("Location");
        assertThat(Orders.countForToken(token)).isEqualTo(1);
        // The order's page names what was bought, with each line's amount, as the review did.
        alice.get(orderPage).then().statusCode(200)
                .body(containsString("<td>Notebook</td><td class=\"amount\">2</td><td class=\"amount\">12.50 CNY</td><td class=\"amount\">25.00 CNY</td>"));
    }

    @Test
    void mistakesAreShownBesideTheirItemsAndNothingIsOrdered() {
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));

        for (String quantity : List.of("two", "1001", "-1", "1.5")) {
            submit(alice, token, new Item("ABC-1", quantity, "12.50")).then().statusCode(400).contentType(containsString("text/html"))
                    .body(containsString("<p class=\"error\" id=\"error-ABC-1\">Enter a whole number from 0 to 1000.</p>"))
                    .body(containsString("id=\"quantity-ABC-1\" name=\"quantity\" value=\"" + quantity + "\""))
                    .body(containsString("value=\"" + token + "\""));
        }
        post(alice, "/checkout/review", token, new Item("ABC-1", "two", "12.50")).then().statusCode(400)
                .body(containsString("Enter a whole number from 0 to 1000."));
        // An empty cart is told so at the top of the page, not asked to correct items that are not marked.
        submit(alice, token, new Item("ABC-1", "0", "12.50"), new Item("MUG-CELADON-350", "", "79.00")).then().statusCode(400)
                .body(containsString("<div class=\"message\" role=\"alert\">"))
                .body(containsString("<p>Choose at least one item: set its quantity above 0.</p>"))
                .body(not(containsString("Please correct the items marked below")));
        assertThat(Orders.countForToken(token)).isZero();

        Response invalidSku = submit(alice, token, new Item("<b>ABC</b>", "2", "12.50"));
        invalidSku.then().statusCode(400)
                .body(containsString("Must be 1 to 64 letters"))
                .body(containsString("value=\"&lt;b&gt;ABC&lt;/b&gt;\""))
                .body(not(containsString("<b>ABC")));
        submit(alice, token, new Item("CAL-WALL-2025", "1", "35.00")).then().statusCode(400)
                .body(containsString("<p class=\"error\" id=\"error-CAL-WALL-2025\">Is not a product on sale.</p>"));

        submit(alice, token, new Item("ABC-1", "2", "12.50")).then().statusCode(303);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    /** Reloading the checkout issues no tokens: its browser keeps the form's one until it is used, so the cap is never reached by browsing. */
    @Test
    void reloadingTheCheckoutKeepsOneTokenUntilAnOrderUsesIt() {
        String user = "reloader-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(user, "customer");
        Browser browser = browser(user);
        String kept = token(browser.get("/checkout"));
        for (int reload = 0; reload < 30; reload++) {
            assertThat(token(browser.get("/checkout"))).as("reload " + reload).isEqualTo(kept);
        }
        assertThat(redis.sortedSet(String.class).zcard(keys.ofPrincipal(user, "tokens-outstanding"))).as("tokens outstanding").isEqualTo(1);

        Response form = browser.get("/checkout");
        submit(browser, token(form), new Item("ABC-1", "1", shownPrice(form, "ABC-1"))).then().statusCode(303);
        String next = token(browser.get("/checkout"));
        assertThat(next).as("a used token is never offered again").isNotEqualTo(kept);
        assertThat(Orders.countForToken(kept)).isEqualTo(1);

        // A token planted in the cookie from elsewhere (another customer's, or made up) is not this customer's: a new one is issued.
        String bobs = token(browser("bob").get("/checkout"));
        Response planted = browser.request().cookie("checkout-token", bobs).get("/checkout");
        assertThat(token(planted)).isNotEqualTo(bobs).isNotEqualTo(next);
    }

    /** Cancelling asks first; the confirmation cancels once, however often it is submitted. */
    @Test
    void cancellingAnOrderAsksForConfirmationFirst() {
        Browser alice = browser("alice");
        String page = URI.create(placeNotebook(alice)).getPath();
        String id = page.substring(page.lastIndexOf('/') + 1);
        String cancel = command(alice.get(page), "cancel");

        Response asked = alice.form().formParam("commandId", cancel).post(page + "/cancel");
        asked.then().statusCode(200).body(containsString("Cancel order")).body(containsString("id=\"confirm-cancel\""))
                .body(containsString("<input type=\"hidden\" name=\"commandId\" value=\"" + cancel + "\">"));
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("created");

        for (int submit = 0; submit < 2; submit++) {
            alice.form().formParam("commandId", cancel).formParam("confirmed", "yes").post(page + "/cancel").then().statusCode(303);
        }
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("cancelled");
        assertThat(Orders.value("SELECT count(*) FROM order_history WHERE order_id = ? AND event = 'cancel'", id)).isEqualTo("1");
    }

    @Test
    void anExpiredFormIsShownAgainWithAFreshTokenAndTheCartKept() {
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));
        redis.key().del(keys.ofPrincipal("alice", "token:" + Hashing.sha256Hex(token)));

        Response expired = submit(alice, token, new Item("ABC-1", "3", "12.50"));
        expired.then().statusCode(200).body(containsString("This form had expired"))
                .body(containsString("id=\"quantity-ABC-1\" name=\"quantity\" value=\"3\""));
        String fresh = token(expired);
        assertThat(fresh).isNotEqualTo(token);

        submit(alice, fresh, new Item("ABC-1", "3", shownPrice(expired, "ABC-1"))).then().statusCode(303);
        assertThat(Orders.countForToken(fresh)).isEqualTo(1);
    }

    @Test
    void aPriceChangedSinceThePageLoadedIsShownBesideItsItemWithTheCartKept() {
        String sku = Products.newProduct("20.00", 10);
        Browser alice = browser("alice");
        Response form = alice.get("/checkout");
        String token = token(form);
        assertThat(shownPrice(form, sku)).isEqualTo("20.00");

        reprice(sku, "22.00");
        Response changed = submit(alice, token, new Item(sku, "2", shownPrice(form, sku)), new Item("ABC-1", "1", shownPrice(form, "ABC-1")));

        changed.then().statusCode(409).contentType(containsString("text/html"))
                .body(containsString("Some prices changed"))
                .body(containsString("<p class=\"notice\" id=\"notice-" + sku + "\" role=\"status\">Price changed: now 22.00 CNY</p>"))
                .body(not(containsString("id=\"notice-ABC-1\"")))
                .body(containsString("id=\"quantity-" + sku + "\" name=\"quantity\" value=\"2\""))
                .body(containsString("id=\"quantity-ABC-1\" name=\"quantity\" value=\"1\""));
        assertThat(token(changed)).isEqualTo(token);
        assertThat(shownPrice(changed, sku)).isEqualTo("22.00");
        assertThat(Orders.countForToken(token)).isZero();

        Response placed = submit(alice, token, new Item(sku, "2", shownPrice(changed, sku)), new Item("ABC-1", "1", shownPrice(changed, "ABC-1")));
        placed.then().statusCode(303);
        alice.get(placed.header("Location")).then().body(containsString("<span id=\"total\">56.50 CNY</span>"));
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    /** A price change and a shortage in one submit are both shown at once, so one correction places the order. */
    @Test
    void aChangedPriceAndAShortStockAreShownTogether() {
        String repriced = Products.newProduct("20.00", 10);
        String scarce = Products.newProduct("9.00", 2);
        Browser alice = browser("alice");
        Response form = alice.get("/checkout");
        String token = token(form);

        reprice(repriced, "21.00");
        Response refused = submit(alice, token, new Item(repriced, "1", shownPrice(form, repriced)), new Item(scarce, "5", shownPrice(form, scarce)));

        refused.then().statusCode(409)
                .body(containsString("Some prices changed and some items are short of stock"))
                .body(containsString("<p class=\"notice\" id=\"notice-" + repriced + "\" role=\"status\">Price changed: now 21.00 CNY</p>"))
                .body(containsString("<p class=\"notice\" id=\"notice-" + scarce + "\" role=\"status\">Only 2 left</p>"));
        assertThat(Orders.countForToken(token)).isZero();

        submit(alice, token, new Item(repriced, "1", "21.00"), new Item(scarce, "2", shownPrice(form, scarce))).then().statusCode(303);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void stockThatIsShortIsShownBesideItsItemWithTheCartKept() {
        String sku = Products.newProduct("15.00", 3);
        Browser alice = browser("alice");
        String token = token(alice.get("/checkout"));

        Response shortOfStock = submit(alice, token, new Item(sku, "5", "15.00"));
        shortOfStock.then().statusCode(409)
                .body(containsString("<p class=\"notice\" id=\"notice-" + sku + "\" role=\"status\">Only 3 left</p>"))
                .body(containsString("id=\"quantity-" + sku + "\" name=\"quantity\" value=\"5\""));
        assertThat(token(shortOfStock)).isEqualTo(token);
        assertThat(Products.stock(sku)).isEqualTo("3/0");

        submit(alice, token, new Item(sku, "3", "15.00")).then().statusCode(303);
        assertThat(Products.stock(sku)).isEqualTo("3/3");
        Response soldOut = submit(alice, token(alice.get("/checkout")), new Item(sku, "1", "15.00"));
        soldOut.then().statusCode(409).body(containsString("id=\"notice-" + sku + "\" role=\"status\">Sold out</p>"));
    }

    @Test
    void myOrdersListsTheCustomersOrdersNewestFirstAPageAtATime() {
        Browser bob = browser("bob");
        String placed = submit(bob, token(bob.get("/checkout")), new Item("ABC-1", "2", "12.50")).header("Location");
        String id = placed.substring(placed.lastIndexOf('/') + 1);
        String orderNumber = Orders.value("SELECT order_number FROM orders WHERE id = ?", id);

        Response mine = bob.get("/checkout/orders");
        mine.then().statusCode(200)
                .body(containsString("<td><a href=\"/checkout/orders/" + id + "\">Order " + orderNumber + "</a></td>"))
                .body(containsString("<td class=\"amount\">25.00 CNY</td>"))
                .body(containsString("<td class=\"status\">created</td>"))
                .body(matchesPattern("(?s).*<time datetime=\"[^\"]+\">" + READABLE_TIME + "</time>.*"))
                .body(containsString("<a href=\"/checkout/orders\">My orders</a>"));
        browser("alice").get("/checkout/orders").then().statusCode(200).body(not(containsString(id)));
        browser("ops").get("/checkout/orders").then().statusCode(200).body(containsString(id));

        // 21 newer orders push the first one to the second page, a page being 20 orders.
        List<String> newer = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            newer.add(Api.placeOrder("bob", Api.newToken("bob"), Api.ORDER).then().statusCode(201).extract().path("id"));
        }
        String body = bob.get("/checkout/orders").asString();
        assertThat(body).doesNotContain(id).contains("Older orders");
        int[] newestFirst = IntStream.iterate(20, i -> i >= 1, i -> i - 1).map(i -> body.indexOf(newer.get(i))).toArray();
        assertThat(newestFirst).doesNotContain(-1).isSorted();
        Matcher older = Pattern.compile("href=\"(/checkout/orders\\?after=[^\"]+)\" rel=\"next\"").matcher(body);
        assertThat(older.find()).isTrue();
        bob.get(older.group(1)).then().statusCode(200).body(containsString(id)).body(containsString(newer.get(0)));

        bob.get("/checkout/orders?after=not-a-cursor").then().statusCode(400)
                .body(containsString("That link to older orders is not valid")).body(containsString(newer.get(20)));
    }

    @Test
    void theOrdersPageOffersTheActionsAllowedNowAndEachIsSafeTwice() {
        Browser alice = browser("alice");
        String page = placeNotebook(alice);
        String id = page.substring(page.lastIndexOf('/') + 1);

        Response shown = alice.get(page);
        shown.then().body(not(containsString(">Ship<")));
        String payCommand = command(shown, "pay");
        alice.form().formParam("commandId", payCommand).post(page + "/pay").then().statusCode(303)
                .header("Location", containsString(page));
        alice.form().formParam("commandId", payCommand).post(page + "/pay").then().statusCode(303);
        assertThat(Ledger.of(id).charges()).isEqualTo(1);

        Browser ops = browser("ops");
        ops.get(page).then().body(containsString(">Ship<"))
                .body(matchesPattern("(?s).*<li>pay by customer: created → paid at <time datetime=\"[^\"]+\">" + READABLE_TIME + "</time></li>.*"));
        browser("bob").get(page).then().statusCode(404);

        ops.form().formParam("commandId", command(ops.get(page), "ship")).post(page + "/ship").then().statusCode(303);
        alice.get(page).then().body(matchesPattern("(?s).*<p id=\"deliver-by\">On its way; unless its delivery is recorded sooner, "
                + "it counts as delivered on <time datetime=\"[^\"]+\">" + READABLE_TIME + "</time>.</p>.*"))
                .body(matchesPattern("(?s).*<li>ship by staff: paid → shipped at .*"));
    }

    @Test
    void theOrdersPageOffersTheSandboxPaymentMethodsAndADeclineLeavesItOpen() {
        Browser alice = browser("alice");
        String page = placeNotebook(alice);
        String id = page.substring(page.lastIndexOf('/') + 1);
        Response shown = alice.get(page);
        shown.then().body(containsString("<option value=\"pm_card_visa\">Visa test card</option>"))
                .body(containsString("<option value=\"pm_card_chargeDeclined\">Test card that is declined</option>"));

        alice.form().formParam("commandId", command(shown, "pay")).formParam("paymentMethod", "pm_card_chargeDeclined")
                .post(page + "/pay").then().statusCode(303).header("Location", containsString("notice=payment-declined"));
        alice.get(page + "?notice=payment-declined").then().body(containsString("Your payment was declined"))
                .body(containsString("<span class=\"status\" id=\"status\">created</span>"));

        alice.form().formParam("commandId", command(alice.get(page), "pay")).formParam("paymentMethod", "pm_card_visa")
                .post(page + "/pay").then().statusCode(303);
        alice.get(page).then().body(containsString("<span class=\"status\" id=\"status\">paid</span>"));
        assertThat(Ledger.of(id).charges()).isEqualTo(1);
        assertThat(Orders.value("SELECT count(*) FROM payments WHERE order_id = ?", id)).isEqualTo("2");
    }

    @Test
    void aCommandIdOutsideTheKeyLimitsIsRefusedWithAPageAndNothingIsDone() {
        Browser alice = browser("alice");
        String page = placeNotebook(alice);
        String id = page.substring(page.lastIndexOf('/') + 1);

        for (String commandId : List.of("x".repeat(256), "", "two words", "\"unterminated")) {
            alice.form().formParam("commandId", commandId).post(page + "/pay").then()
                    .statusCode(400)
                    .contentType(containsString("text/html"))
                    .body(containsString("Nothing was done"))
                    .body(containsString(">Pay<"));
        }
        alice.form().post(page + "/cancel").then().statusCode(400).body(containsString("Nothing was done"));
        assertThat(Ledger.of(id).charges()).isZero();
        alice.get(page).then().body(containsString("<span class=\"status\" id=\"status\">created</span>"));

        // The same limits as the Idempotency-Key header: a quoted command id counts by its unquoted value.
        String longest = "y".repeat(255);
        alice.form().formParam("commandId", "\"" + longest + "\"").post(page + "/pay").then().statusCode(303);
        assertThat(Orders.value("SELECT command_id FROM order_history WHERE order_id = ?", id)).isEqualTo(longest);
    }

    /**
     * A signed-in browser (form login, session and CSRF cookies); each request starts from a fresh specification.
     * Like a browser, its forms post the CSRF token of the last page it was shown.
     */
    static final class Browser {
        private final CookieFilter cookies;
        private String csrfToken;

        Browser(CookieFilter cookies) {
            this.cookies = cookies;
        }

        RequestSpecification request() {
            return given().filter(cookies).redirects().follow(false);
        }

        /** A form post as a page of the site sends it: with the page's CSRF token. */
        RequestSpecification form() {
            return request().formParam("csrf-token", csrfToken());
        }

        String csrfToken() {
            return csrfToken;
        }

        Response get(String path) {
            Response page = request().get(path);
            Matcher token = CSRF.matcher(page.asString());
            if (token.find()) {
                csrfToken = token.group(1);
            }
            return page;
        }
    }

    /** A product of the form as it is posted: the quantity typed and the price the page showed. */
    record Item(String sku, String quantity, String shownPrice) {
    }

    static Browser browser(String user) {
        CookieFilter cookies = new CookieFilter();
        signIn(cookies, user, user).then().statusCode(302);
        return new Browser(cookies);
    }

    /** A notebook ordered from a fresh form; returns the order page's address. */
    static String placeNotebook(Browser browser) {
        Response form = browser.get("/checkout");
        return submit(browser, token(form), new Item("ABC-1", "1", shownPrice(form, "ABC-1"))).then().statusCode(303).extract().header("Location");
    }

    static Response submit(Browser browser, String token, Item... items) {
        return post(browser, "/checkout", token, items);
    }

    /**
     * The form as a browser posts it, with only the given products (a browser would also post the others, at quantity 0)
     * and the delivery address it was filled with.
     */
    private static Response post(Browser browser, String path, String token, Item... items) {
        return post(browser, path, token, ADDRESS, items);
    }

    private static Response post(Browser browser, String path, String token, Map<String, String> address, Item... items) {
        List<Item> cart = List.of(items);
        return browser.form().formParam("token", token)
                .formParam("sku", cart.stream().map(Item::sku).toList())
                .formParam("quantity", cart.stream().map(Item::quantity).toList())
                .formParam("unitPrice", cart.stream().map(Item::shownPrice).toList())
                .formParam("currency", cart.stream().map(item -> "CNY").toList())
                .formParams(address)
                .post(path);
    }

    /** Staff change a product's price (it was made by {@link Products#newProduct}). */
    static void reprice(String sku, String price) {
        as("ops").contentType(ContentType.JSON)
                .body("{\"name\":\"Test " + sku + "\",\"description\":\"\",\"price\":\"" + price + "\",\"currency\":\"CNY\",\"active\":true}")
                .put("/products/{sku}", sku).then().statusCode(200);
    }

    static String token(Response page) {
        Matcher token = TOKEN.matcher(page.asString());
        assertThat(token.find()).as("a token in the form").isTrue();
        return token.group(1);
    }

    /** The price the page shows for a product, which the form posts back with the order. */
    static String shownPrice(Response page, String sku) {
        Matcher price = Pattern.compile("name=\"unitPrice\" value=\"([^\"]+)\" id=\"shown-price-" + Pattern.quote(sku) + "\"").matcher(page.asString());
        assertThat(price.find()).as("a shown price of " + sku).isTrue();
        return price.group(1);
    }

    static String command(Response page, String action) {
        Matcher command = COMMAND.matcher(page.asString());
        while (command.find()) {
            if (command.group(1).equals(action)) {
                return command.group(2);
            }
        }
        throw new AssertionError("no " + action + " form on the page");
    }
}
