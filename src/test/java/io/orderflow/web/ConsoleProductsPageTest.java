package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.orderflow.web.WebCheckoutTest.browser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The catalog in the staff console: a product added and changed by its forms, by the API's rules, each refused field's
 * words beside it; its stock adjusted once however often the form is sent, and the adjustment in its history on the page.
 * Customers are refused.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ConsoleProductsPageTest {

    private static final Pattern NEXT = Pattern.compile("<a href=\"(/console/products\\?after=[^\"]+)\" rel=\"next\">");
    private static final Pattern COMMAND = Pattern.compile("name=\"commandId\" value=\"([^\"]+)\"");

    @Test
    void staffAddAProductChangeItsPriceAndAdjustItsStockOnceWhenTheFormIsSentTwice() {
        WebCheckoutTest.Browser ops = browser("ops");
        String sku = "C-" + UUID.randomUUID().toString().substring(0, 8).toUpperCase(Locale.ROOT);
        String page = "/console/products/" + sku;
        assertThat(ops.get("/console/products/new").then().statusCode(200).extract().asString())
                .contains("<label for=\"product-sku\">SKU</label>", "name=\"onHand\"");

        for (String notice : new String[] { "created", "product-exists" }) {
            details(ops.form(), "Oolong tea", "12.50").formParam("sku", sku).formParam("onHand", "10").post("/console/products").then()
                    .statusCode(303).header("Location", endsWith(page + "?notice=" + notice));
        }
        assertThat(Orders.value("SELECT count(*) FROM products WHERE sku = ?", sku)).isEqualTo("1");
        assertThat(listed(ops, page)).contains("<a href=\"" + page + "\">Oolong tea</a></th>", "<td class=\"amount\">12.50 CNY</td>");

        details(ops.form(), "Oolong tea", "15.00").post(page).then().statusCode(303).header("Location", endsWith(page + "?notice=saved"));
        as("alice").get("/products/{sku}", sku).then().statusCode(200).body("price", equalTo("15.00"));

        String command = command(ops.get(page + "?notice=saved").then().statusCode(200).extract().response());
        for (int submit = 0; submit < 2; submit++) {
            ops.form().formParam("delta", "7").formParam("reason", "found in the back room").formParam("commandId", command)
                    .post(page + "/stock").then().statusCode(303).header("Location", endsWith(page + "?notice=adjusted"));
        }
        assertThat(Products.stock(sku)).isEqualTo("17/0");
        assertThat(Orders.value("SELECT count(*) FROM stock_adjustments WHERE sku = ?", sku)).isEqualTo("1");

        String shown = ops.get(page + "?notice=adjusted").then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        assertThat(shown).contains("The stock was adjusted.", "<dd id=\"on-hand\">17</dd>", "<h2 id=\"history-heading\">Stock history</h2>");
        assertThat(shown.substring(shown.indexOf("id=\"stock-history\""))).contains("Adjustment", "+7 on hand", "ops", "found in the back room");
        assertThat(command(ops.get(page))).as("a fresh form, a new command").isNotEqualTo(command);
        assertThat(ops.request().header("Accept-Language", "zh-CN").get(page).asString())
                .contains("<html lang=\"zh-CN\">", "<h2 id=\"history-heading\">库存记录</h2>", "现有库存 +7", "¥15.00");
    }

    @Test
    void aRefusedFieldIsNamedBesideItAndNothingChanges() {
        String sku = Products.newProduct("12.50", 5);
        String page = "/console/products/" + sku;
        WebCheckoutTest.Browser ops = browser("ops");
        ops.get(page);

        String unreadable = details(ops.form(), "", "abc").post(page).then().statusCode(400).extract().asString();
        assertThat(unreadable).contains("<p class=\"error\" id=\"error-price\">Must be an amount such as 12.50.</p>",
                "<p class=\"error\" id=\"error-name\">Is required and must not be blank.</p>", "value=\"abc\"");
        String zero = details(ops.form(), "Tea", "0").post(page).then().statusCode(400).extract().asString();
        assertThat(zero).contains("<p class=\"error\" id=\"error-price\">Must be greater than 0.</p>").doesNotContain("id=\"error-name\"");
        assertThat(Orders.value("SELECT price FROM products WHERE sku = ?", sku)).isEqualTo("12.5000");

        String command = command(ops.get(page));
        assertThat(ops.form().formParam("delta", "0").formParam("reason", " ").formParam("commandId", command).post(page + "/stock").then()
                .statusCode(400).extract().asString()).contains("id=\"error-delta\">Must be a whole number from -1000000 to 1000000, not 0.</p>",
                        "id=\"error-reason\">Is required and must not be blank.</p>");
        assertThat(ops.form().formParam("delta", "-6").formParam("reason", "stocktake").formParam("commandId", command).post(page + "/stock")
                .then().statusCode(409).extract().asString()).contains("insufficient-stock: nothing was done", "value=\"-6\"");
        assertThat(Products.stock(sku)).isEqualTo("5/0");
    }

    @Test
    void customersAreRefusedTheProductsOfTheConsole() {
        String sku = Products.newProduct("12.50", 5);
        WebCheckoutTest.Browser alice = browser("alice");
        alice.get("/console/products").then().statusCode(403).body(containsString("The console is for staff."));
        alice.get("/console/products/" + sku).then().statusCode(403);
        alice.get("/checkout");
        alice.form().formParam("delta", "100").formParam("reason", "mine").formParam("commandId", "alice-adds")
                .post("/console/products/" + sku + "/stock").then().statusCode(403);
        assertThat(Products.stock(sku)).isEqualTo("5/0");
    }

    private static RequestSpecification details(RequestSpecification form, String name, String price) {
        return form.formParam("name", name).formParam("description", "Tieguanyin").formParam("price", price).formParam("currency", "CNY")
                .formParam("active", "yes");
    }

    /** The page of the console's product list that links to {@code product}, followed from the first. */
    private static String listed(WebCheckoutTest.Browser browser, String product) {
        String list = "/console/products";
        while (true) {
            String shown = browser.get(list).then().statusCode(200).extract().asString();
            Matcher next = NEXT.matcher(shown);
            if (shown.contains("href=\"" + product + "\"") || !next.find()) {
                return shown;
            }
            list = next.group(1);
        }
    }

    private static String command(Response page) {
        Matcher command = COMMAND.matcher(page.asString());
        assertThat(command.find()).as("the stock form's command id").isTrue();
        return command.group(1);
    }
}
