package io.orderflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.orderflow.support.Orders;
import io.orderflow.support.Products;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The checkout in headless Chromium: buying from the catalog with the total in view, a price that
 * changed after the page loaded, and a double click, then the back button and a resubmit, ending on
 * one order's page, with no Content-Security-Policy violation in the page's console. Runs where Debian's
 * chromium and chromium-driver are installed (.ci/run installs them).
 */
@Tag("browser")
@QuarkusTest
@WithTestResource(TestServers.class)
class BrowserCheckoutTest {

    @TestHTTPResource("/")
    URL site;

    private Chromium chromium;
    private WebDriver browser;
    private WebDriverWait wait;

    @AfterEach
    void stopBrowser() {
        try {
            if (browser != null) {
                // Whatever the page did, the Content-Security-Policy blocked none of it.
                assertThat(browser.manage().logs().get(LogType.BROWSER).getAll()).extracting(LogEntry::getMessage)
                        .noneMatch(message -> message.contains("Content Security Policy") || message.contains("Content-Security-Policy"));
            }
        } finally {
            if (chromium != null) {
                chromium.close();
            }
        }
    }

    @Test
    void theTotalIsShownLiveAndADoubleClickAndABackButtonResubmitEndOnOneOrder() throws Exception {
        signIn(true);
        String token = browser.findElement(By.name("token")).getAttribute("value");
        assertThat(browser.findElement(By.id("cart-total")).getText()).isEqualTo("nothing chosen yet");
        // Typed into the untouched field, as a customer would: the quantity is what was typed.
        browser.findElement(By.id("quantity-ABC-1")).sendKeys("2");
        wait.until(ExpectedConditions.textToBe(By.id("cart-total"), "25.00 CNY"));
        screenshot("checkout.png");

        doubleClick(browser.findElement(By.id("place-order")));
        wait.until(ExpectedConditions.urlContains("/checkout/orders/"));
        String orderPage = browser.getCurrentUrl();
        assertThat(browser.findElement(By.id("status")).getText()).isEqualToIgnoringCase("created");
        assertThat(browser.findElement(By.id("total")).getText()).isEqualTo("25.00 CNY");

        // Back to the filled form, and submit it once more.
        browser.navigate().back();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));
        assertThat(browser.findElement(By.name("token")).getAttribute("value")).isEqualTo(token);
        wait.until(ExpectedConditions.textToBe(By.id("cart-total"), "25.00 CNY"));
        browser.findElement(By.id("place-order")).click();
        wait.until(ExpectedConditions.urlContains("/checkout/orders/"));

        assertThat(browser.getCurrentUrl()).isEqualTo(orderPage);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
        screenshot("order-page.png");
    }

    @Test
    void aPriceChangedAfterThePageLoadedIsShownAndTheOrderAtTheNewPriceGoesThrough() throws Exception {
        String sku = Products.newProduct("30.00", 10);
        signIn(true);
        String token = browser.findElement(By.name("token")).getAttribute("value");
        setQuantity(sku, "1");
        wait.until(ExpectedConditions.textToBe(By.id("cart-total"), "30.00 CNY"));

        WebCheckoutTest.reprice(sku, "32.00");
        browser.findElement(By.id("place-order")).click();

        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("notice-" + sku)));
        assertThat(browser.findElement(By.id("notice-" + sku)).getText()).isEqualTo("Price changed: now 32.00 CNY");
        assertThat(browser.findElement(By.id("quantity-" + sku)).getAttribute("value")).isEqualTo("1");
        assertThat(browser.findElement(By.name("token")).getAttribute("value")).isEqualTo(token);
        wait.until(ExpectedConditions.textToBe(By.id("cart-total"), "32.00 CNY"));
        assertThat(Orders.countForToken(token)).isZero();
        screenshot("price-changed.png");

        browser.findElement(By.id("place-order")).click();
        wait.until(ExpectedConditions.urlContains("/checkout/orders/"));
        assertThat(browser.findElement(By.id("total")).getText()).isEqualTo("32.00 CNY");
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    @Test
    void withoutJavaScriptTheReviewShowsTheTotalBeforeTheOrderIsPlaced() throws Exception {
        signIn(false);
        String token = browser.findElement(By.name("token")).getAttribute("value");
        assertThat(browser.findElement(By.id("live-total")).isDisplayed()).isFalse();
        setQuantity("ABC-1", "3");

        browser.findElement(By.xpath("//button[text()='Review total']")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("reviewed-total")));
        assertThat(browser.findElement(By.id("reviewed-total")).getText()).isEqualTo("37.50 CNY");
        assertThat(browser.findElement(By.id("quantity-ABC-1")).getAttribute("value")).isEqualTo("3");
        assertThat(Orders.countForToken(token)).isZero();
        screenshot("review.png");

        browser.findElement(By.id("place-order")).click();
        wait.until(ExpectedConditions.urlContains("/checkout/orders/"));
        assertThat(browser.findElement(By.id("total")).getText()).isEqualTo("37.50 CNY");
        assertThat(Orders.countForToken(token)).isEqualTo(1);
    }

    /** Starts Chromium (with or without JavaScript) and signs in as alice, which leads to the checkout form. */
    private void signIn(boolean javascript) throws Exception {
        chromium = Chromium.start(javascript, 1280, 900);
        browser = chromium.browser;
        wait = new WebDriverWait(browser, Duration.ofSeconds(15));

        browser.get(site + "checkout");
        wait.until(ExpectedConditions.urlContains("/login"));
        browser.findElement(By.id("user")).sendKeys("alice");
        browser.findElement(By.id("password")).sendKeys("alice");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));
    }

    private void setQuantity(String sku, String quantity) {
        WebElement field = browser.findElement(By.id("quantity-" + sku));
        field.clear();
        field.sendKeys(quantity);
    }

    /** Two clicks 150 ms apart at the button's centre in the viewport: Chromium merges a doubleClick() into one submission. */
    private void doubleClick(WebElement button) {
        @SuppressWarnings("unchecked")
        List<Number> centre = (List<Number>) ((JavascriptExecutor) browser).executeScript(
                "var box = arguments[0].getBoundingClientRect(); return [box.left + box.width / 2, box.top + box.height / 2];", button);
        new Actions(browser).moveToLocation(centre.get(0).intValue(), centre.get(1).intValue())
                .click().pause(Duration.ofMillis(150)).click().perform();
    }

    private void screenshot(String name) throws Exception {
        chromium.screenshot(name);
    }
}
