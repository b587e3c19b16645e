package io.orderflow.web;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.web.Chromium.press;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.orderflow.support.FakeProviders;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A day in the staff console, in a real browser: an admin signs in, filters to paid orders, finds one by its customer and
 * by its order number, reads its timeline, ships it and sees the shipment join the story, retries a dead letter, adjusts
 * a product's stock and finds the adjustment in its history, adds a user and disables them. axe-core checks every console
 * page on the way; a customer is refused the console. The order's timeline and the health page are kept as screenshots.
 */
@Tag("browser")
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class ConsoleBrowserTest {

    private static final String SKU = "ABC-1";
    private static final Duration WITHIN = Duration.ofSeconds(30);

    @TestHTTPResource("/")
    URL site;

    @Test
    void staffFindShipAndFollowAnOrderRetryADeadLetterAdjustStockAndManageUsers() throws Exception {
        Axe axe = Axe.load();
        String run = UUID.randomUUID().toString().substring(0, 8);
        String admin = "admin-" + run;
        String customer = "buyer-" + run;
        Users.add(admin, "admin");
        Users.add(customer, "customer");
        String paid = newOrder(customer);
        act(customer, paid, "pay").then().statusCode(200);
        String unpaid = newOrder(customer);
        String paidNumber = Orders.value("SELECT order_number FROM orders WHERE id = ?::uuid", paid);
        String unpaidNumber = Orders.value("SELECT order_number FROM orders WHERE id = ?::uuid", unpaid);
        String deadLetter = Orders.value("SELECT id FROM outbox WHERE idempotency_key = ?", ConsoleOperationsPagesTest.deadShipment());
        FakeProviders.clearScripts();
        List<String> violations = new ArrayList<>();

        try (Chromium chromium = Chromium.start(true, 1280, 900)) {
            WebDriver browser = chromium.browser;
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));

            // A visitor is sent to sign in and comes back to the console.
            browser.get(site + "console");
            wait.until(ExpectedConditions.urlContains("/login"));
            signIn(browser, admin);
            wait.until(ExpectedConditions.urlContains("/console/orders"));
            violations.addAll(axe.serious(browser, "orders"));

            new Select(browser.findElement(By.id("status"))).selectByValue("paid");
            press(browser.findElement(By.cssSelector("form.filters button[type=submit]")));
            wait.until(ExpectedConditions.urlContains("status=paid"));
            assertThat(listed(browser)).contains("Order " + paidNumber).doesNotContain("Order " + unpaidNumber);
            assertThat(browser.findElements(By.cssSelector("#orders td.status"))).extracting(WebElement::getText).containsOnly("Paid");

            browser.get(site + "console/orders");
            browser.findElement(By.id("customer")).sendKeys(customer);
            press(browser.findElement(By.cssSelector("form.filters button[type=submit]")));
            wait.until(ExpectedConditions.urlContains("customer=" + customer));
            assertThat(browser.findElements(By.cssSelector("#orders td.customer"))).extracting(WebElement::getText)
                    .as("the customer's two orders, and only theirs").containsExactly(customer, customer);

            browser.findElement(By.id("find")).sendKeys(paidNumber);
            press(browser.findElement(By.cssSelector("form.filters button[type=submit]")));
            wait.until(ExpectedConditions.urlContains("/console/orders/" + paid));
            assertThat(timeline(browser)).contains("Placed by " + customer, "pay by " + customer + ": created → paid", "payment:" + paid);
            violations.addAll(axe.serious(browser, "order"));

            WebElement ship = browser.findElement(By.cssSelector("form[action$='/ship'] button"));
            chromium.submit(ship);
            assertThat(timeline(browser)).contains("ship by " + admin + ": paid → shipped");
            wait.until(page -> {
                page.navigate().refresh();
                return timeline(page).contains("The warehouse accepted the shipment");
            });
            chromium.screenshot("console-order.png");
            assertThat(Orders.value("SELECT count(*) FROM order_history WHERE order_id = ?::uuid AND event = 'ship'", paid)).isEqualTo("1");

            browser.get(site + "console/dead-letters");
            violations.addAll(axe.serious(browser, "dead letters"));
            WebElement retry = browser.findElement(By.cssSelector("#dead-letter-" + deadLetter + " button"));
            chromium.submit(retry);
            assertThat(browser.findElement(By.cssSelector("[role=status]")).getText()).contains("Dead letter " + deadLetter + " is back in line");
            await().atMost(WITHIN).until(() -> !"DEAD".equals(Orders.value("SELECT status FROM outbox WHERE id = ?", deadLetter)));

            int onHand = Integer.parseInt(Orders.value("SELECT on_hand FROM products WHERE sku = ?", SKU));
            browser.get(site + "console/products");
            violations.addAll(axe.serious(browser, "products"));
            browser.get(site + "console/products/" + SKU);
            browser.findElement(By.id("stock-delta")).sendKeys("5");
            browser.findElement(By.id("stock-reason")).sendKeys("Recount " + run);
            WebElement adjust = browser.findElement(By.cssSelector("form[action$='/stock'] button"));
            chromium.submit(adjust);
            assertThat(browser.findElement(By.id("stock-history")).getText()).contains("Recount " + run, admin);
            assertThat(Integer.parseInt(Orders.value("SELECT on_hand FROM products WHERE sku = ?", SKU))).isEqualTo(onHand + 5);
            violations.addAll(axe.serious(browser, "product"));

            String clerk = "clerk-" + run;
            browser.get(site + "console/users");
            violations.addAll(axe.serious(browser, "users"));
            browser.findElement(By.id("add-name")).sendKeys(clerk);
            new Select(browser.findElement(By.id("add-role"))).selectByValue("staff");
            browser.findElement(By.id("add-password")).sendKeys("clerk password " + run);
            browser.findElement(By.id("add-password-again")).sendKeys("clerk password " + run);
            WebElement add = browser.findElement(By.cssSelector("#add-user button[type=submit]"));
            chromium.submit(add);
            assertThat(browser.findElement(By.id("users")).getText()).contains(clerk);
            WebElement disable = browser.findElement(By.cssSelector("form[action='/console/users/" + clerk + "/disable'] button"));
            chromium.submit(disable);
            violations.addAll(axe.serious(browser, "disable confirmation"));
            WebElement confirm = browser.findElement(By.id("confirm-disable"));
            chromium.submit(confirm);
            assertThat(Orders.value("SELECT disabled_at IS NOT NULL FROM users WHERE name = ?", clerk)).isEqualTo("t");

            for (String page : List.of("products/new", "refunds", "reconciliation", "orders?view=paid-not-shipped", "orders/" + UUID.randomUUID(),
                    "products/NO-SUCH-SKU", "nowhere", "health")) {
                browser.get(site + "console/" + page);
                violations.addAll(axe.serious(browser, page));
            }
            // All six charts in one picture.
            browser.manage().window().setSize(new Dimension(1280, 1150));
            chromium.screenshot("console-health.png");

            // The console is for staff: a customer signed in is refused it.
            browser.manage().deleteAllCookies();
            browser.get(site + "console/orders");
            wait.until(ExpectedConditions.urlContains("/login"));
            signIn(browser, customer);
            wait.until(ExpectedConditions.presenceOfElementLocated(By.tagName("h1")));
            assertThat(browser.findElement(By.tagName("h1")).getText()).isEqualTo("Not for this account");
            assertThat(browser.findElement(By.tagName("main")).getText()).contains("The console is for staff.");
            violations.addAll(axe.serious(browser, "refused to a customer"));
            assertThat(browser.findElements(By.id("orders"))).isEmpty();
        }
        assertThat(violations).as("serious or critical accessibility violations on the console's pages").isEmpty();
    }

    private static void signIn(WebDriver browser, String user) {
        browser.findElement(By.id("user")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(user);
        press(browser.findElement(By.cssSelector("main button[type=submit]")));
    }

    /** The orders the list shows, as their links name them. */
    private static List<String> listed(WebDriver browser) {
        return browser.findElements(By.cssSelector("#orders td a")).stream().map(WebElement::getText).toList();
    }

    private static String timeline(WebDriver browser) {
        return browser.findElement(By.id("timeline")).getText();
    }
}
