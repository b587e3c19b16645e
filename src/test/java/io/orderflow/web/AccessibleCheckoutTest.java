package io.orderflow.web;

import static io.orderflow.web.Chromium.press;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A new customer's whole visit, in English and in Chinese, on a desktop's and a phone's width: the checkout reloaded
 * 30 times still places the order, to an address typed in; the order's page names what was bought with each line's
 * amount, becomes a receipt when paid, and tells the refund's state once cancelled. axe-core (ops/a11y) checks every
 * page on the way, signed in and out, with its mistakes shown too, and no serious or critical violation may remain.
 */
@Tag("browser")
@QuarkusTest
@WithTestResource(TestServers.class)
class AccessibleCheckoutTest {

    private static final int RELOADS = 30;
    private static final double MAX_BAR_HEIGHT = 64;

    /** What the pages say in each language, where the test reads them. */
    private static final Map<String, Map<String, String>> WORDS = Map.of(
            "en", Map.of("place", "Place order", "status", "Created", "refund", "Your refund of 104.00 CNY has been made.", "receipt", "Receipt",
                    "notebooks", "25.00 CNY", "mug", "79.00 CNY", "total", "104.00 CNY", "live", "104.00 CNY"),
            "zh-CN", Map.of("place", "提交订单", "status", "待付款", "refund", "您的退款 ¥104.00 已退回。", "receipt", "收据",
                    "notebooks", "¥25.00", "mug", "¥79.00", "total", "¥104.00", "live", "¥104.00"));

    @TestHTTPResource("/")
    URL site;

    @ParameterizedTest(name = "{0} at {1} px")
    @CsvSource({ "en, 1280, 900", "en, 390, 844", "zh-CN, 1280, 900", "zh-CN, 390, 844" })
    void aNewCustomerOrdersToATypedAddressPaysAndCancelsAndEveryPageIsAccessible(String language, int width, int height) throws Exception {
        Axe axe = Axe.load();
        Map<String, String> words = WORDS.get(language);
        String customer = "a11y-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(customer, "customer");
        Users.forgetAddress(customer);
        List<String> violations = new ArrayList<>();

        try (Chromium chromium = Chromium.start(true, width, height)) {
            WebDriver browser = chromium.browser;
            // Generous: the proof under faults may share the two cores; a slow answer is not what this test is about.
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
            browser.get(site + "language/" + language + "?back=/checkout");
            wait.until(ExpectedConditions.urlContains("/login"));
            assertThat(browser.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo(language);
            assertThat(((Number) ((JavascriptExecutor) browser).executeScript("return window.innerWidth;")).intValue()).isEqualTo(width);
            violations.addAll(axe.serious(browser, "sign-in"));
            browser.findElement(By.id("user")).sendKeys(customer);
            browser.findElement(By.id("password")).sendKeys(customer);
            press(browser.findElement(By.cssSelector("main button[type=submit]")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));

            // Browsing the checkout uses up no order tokens: the 30th reload still shows the form with the same token.
            String token = browser.findElement(By.name("token")).getAttribute("value");
            for (int i = 0; i < RELOADS; i++) {
                browser.navigate().refresh();
                wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));
            }
            assertThat(browser.findElement(By.name("token")).getAttribute("value")).isEqualTo(token);
            violations.addAll(axe.serious(browser, "checkout"));
            // The bar that keeps the total and the buttons in view leaves a phone's screen to the products.
            Number bar = (Number) ((JavascriptExecutor) browser).executeScript(
                    "return document.querySelector('.cart-bar').getBoundingClientRect().height;");
            assertThat(bar.doubleValue()).as("the cart bar's height in px").isLessThanOrEqualTo(MAX_BAR_HEIGHT);
            chromium.screenshot("checkout-" + language + "-" + width + ".png");

            // Nothing chosen and no address: every mistake is listed at the top and marked beside its field.
            press(browser.findElement(By.id("place-order")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".message")));
            assertThat(browser.findElements(By.cssSelector(".mistakes a"))).hasSizeGreaterThanOrEqualTo(3);
            violations.addAll(axe.serious(browser, "checkout with mistakes"));

            browser.findElement(By.id("quantity-ABC-1")).sendKeys("2");
            browser.findElement(By.id("quantity-MUG-CELADON-350")).sendKeys("1");
            browser.findElement(By.id("address-name")).sendKeys("Han Meimei");
            browser.findElement(By.id("address-line1")).sendKeys("Room 5, 77 Wulumuqi Road");
            browser.findElement(By.id("address-city")).sendKeys("Shanghai");
            browser.findElement(By.id("address-postalCode")).sendKeys("200031");
            // Chosen as a script would: an emulated phone opens a native picker for a long list, which a driver's click may miss.
            WebElement country = browser.findElement(By.id("address-country"));
            ((JavascriptExecutor) browser).executeScript(
                    "arguments[0].value = 'CN'; arguments[0].dispatchEvent(new Event('change', { bubbles: true }));", country);
            assertThat(new Select(country).getFirstSelectedOption().getAttribute("value")).isEqualTo("CN");
            wait.until(ExpectedConditions.textToBe(By.id("cart-total"), words.get("live")));
            browser.findElement(By.id("address-phone")).sendKeys("+86 21 5555 0199");
            assertThat(browser.findElement(By.id("place-order")).getText()).isEqualTo(words.get("place"));
            // The order's page, or the form again saying why not, which fails with its words.
            chromium.submit(browser.findElement(By.id("place-order")));
            assertThat(browser.getCurrentUrl()).as("after placing the order: %s", browser.findElements(By.cssSelector(".message, .error"))
                    .stream().map(WebElement::getText).toList()).contains("/checkout/orders/");
            assertThat(Orders.countForToken(token)).isEqualTo(1);

            String page = browser.getCurrentUrl();
            assertThat(browser.findElement(By.id("status")).getText()).isEqualTo(words.get("status"));
            String items = browser.findElement(By.tagName("table")).getText();
            assertThat(items).contains("Notebook", words.get("notebooks"), "Celadon mug, 350 ml", words.get("mug"));
            assertThat(browser.findElement(By.id("total")).getText()).isEqualTo(words.get("total"));
            assertThat(browser.findElement(By.id("shipping-address")).getText()).contains("Han Meimei", "Room 5, 77 Wulumuqi Road", "200031");
            violations.addAll(axe.serious(browser, "order"));

            press(browser.findElement(By.cssSelector("form[action$='/pay'] button")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("receipt")));
            assertThat(browser.findElement(By.id("receipt-heading")).getText()).isEqualTo(words.get("receipt"));
            violations.addAll(axe.serious(browser, "receipt"));

            press(browser.findElement(By.cssSelector("form[action$='/cancel'] button")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("confirm-cancel")));
            violations.addAll(axe.serious(browser, "cancel confirmation"));
            press(browser.findElement(By.id("confirm-cancel")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("refund")));
            assertThat(browser.findElement(By.id("refund")).getText()).isEqualTo(words.get("refund"));
            assertThat(browser.getCurrentUrl()).startsWith(page);
            violations.addAll(axe.serious(browser, "refund"));

            browser.get(site + "checkout/orders");
            violations.addAll(axe.serious(browser, "my orders"));
            browser.get(site + "checkout/orders/" + UUID.randomUUID());
            violations.addAll(axe.serious(browser, "order not found"));
            browser.get(site + "checkout/nowhere");
            violations.addAll(axe.serious(browser, "page not found"));

            browser.get(site + "checkout");
            press(browser.findElement(By.cssSelector("nav button[type=submit]")));
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("signed-out")));
            violations.addAll(axe.serious(browser, "signed out"));

            // The checker sees what it is there for: a field without a label is reported.
            ((JavascriptExecutor) browser).executeScript("document.querySelector('main').insertAdjacentHTML('beforeend', '<input id=\"unlabelled\">')");
            assertThat(axe.serious(browser, "probe")).anyMatch(violation -> violation.startsWith("probe: label (critical)"));
        }
        assertThat(violations).as("serious or critical accessibility violations (%s, %d px)", language, width).isEmpty();
    }
}
