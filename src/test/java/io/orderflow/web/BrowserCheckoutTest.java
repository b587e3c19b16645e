package io.orderflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The checkout in headless Chromium: a double click, then the back button and a resubmit, end on one
 * order's page. Runs where Debian's chromium and chromium-driver are installed (.ci/run installs them).
 */
@Tag("browser")
@QuarkusTest
@WithTestResource(TestServers.class)
class BrowserCheckoutTest {

    @TestHTTPResource("/")
    URL site;

    private ChromeDriverService service;
    private WebDriver browser;

    @BeforeEach
    void startBrowser() throws Exception {
        service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=1280,900",
                "--user-data-dir=" + Files.createTempDirectory("chromium-profile"));
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    @Test
    void aDoubleClickAndABackButtonResubmitEndOnOneOrder() throws Exception {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(15));
        browser.get(site + "checkout");
        wait.until(ExpectedConditions.urlContains("/login"));
        browser.findElement(By.id("user")).sendKeys("alice");
        browser.findElement(By.id("password")).sendKeys("alice");
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));

        String token = browser.findElement(By.name("token")).getAttribute("value");
        browser.findElement(By.id("sku0")).sendKeys("ABC-1");
        browser.findElement(By.id("quantity0")).clear();
        browser.findElement(By.id("quantity0")).sendKeys("2");
        browser.findElement(By.id("unitPrice0")).sendKeys("12.50");
        WebElement submit = browser.findElement(By.cssSelector("button[type=submit]"));
        Rectangle box = submit.getRect();
        new Actions(browser).moveToLocation(box.getX() + box.getWidth() / 2, box.getY() + box.getHeight() / 2)
                .click().pause(Duration.ofMillis(150)).click().perform();
        wait.until(ExpectedConditions.urlContains("/checkout/orders/"));
        String orderPage = browser.getCurrentUrl();
        assertThat(browser.findElement(By.id("status")).getText()).isEqualToIgnoringCase("created");

        // Back to the filled form, and submit it once more.
        browser.navigate().back();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.name("token")));
        assertThat(browser.findElement(By.name("token")).getAttribute("value")).isEqualTo(token);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.urlContains("/checkout/orders/"));

        assertThat(browser.getCurrentUrl()).isEqualTo(orderPage);
        assertThat(Orders.countForToken(token)).isEqualTo(1);
        Path shot = Path.of("target", "screenshots", "order-page.png");
        Files.createDirectories(shot.getParent());
        Files.copy(((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), shot,
                StandardCopyOption.REPLACE_EXISTING);
    }
}
