package io.orderflow.web;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.logging.Level;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Debian's headless Chromium driven by its chromedriver, with a fresh profile and the page's console kept for the test to read. */
final class Chromium implements AutoCloseable {

    /** How long a posted form may take to show its next page: generous, as the proof under faults may share the cores. */
    private static final Duration NEXT_PAGE = Duration.ofSeconds(60);

    /** The narrowest window headless Chromium draws. */
    private static final int MIN_WINDOW_WIDTH = 500;

    final ChromeDriverService service;
    final WebDriver browser;

    private Chromium(ChromeDriverService service, WebDriver browser) {
        this.service = service;
        this.browser = browser;
    }

    /** A browser whose pages are this wide and high (a phone's, emulated, below 500 px), with or without JavaScript. */
    static Chromium start(boolean javascript, int width, int height) throws IOException {
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver"))
                .usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions().setBinary("/usr/bin/chromium").addArguments("--headless=new", "--no-sandbox",
                "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--window-size=" + width + "," + height,
                "--user-data-dir=" + Files.createTempDirectory("chromium-profile"));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        if (width < MIN_WINDOW_WIDTH) {
            // A window is never narrower than 500 px: a phone's width is the emulated device's viewport.
            options.setExperimentalOption("mobileEmulation", Map.of("deviceMetrics", Map.of("width", width, "height", height, "pixelRatio", 1.0)));
        }
        if (!javascript) {
            options.setExperimentalOption("prefs", Map.of("profile.managed_default_content_settings.javascript", 2));
        }
        return new Chromium(service, new ChromeDriver(service, options));
    }

    /**
     * Presses a form's button and waits until the page it posted to is shown. The page shown before carries a mark of its
     * own, set here, which no other page has; asking for an element of a page while the browser replaces it can fail
     * in the driver, so only the mark is asked for, and a failed question is asked again. If no other page ever comes,
     * fails with what the browser shows and logged, so that a page that did not change says why.
     */
    void submit(WebElement button) {
        JavascriptExecutor script = (JavascriptExecutor) browser;
        script.executeScript("window.shownBeforeSubmit = true;");
        press(button);
        try {
            new WebDriverWait(browser, NEXT_PAGE).ignoring(WebDriverException.class).until(shown -> Boolean.TRUE.equals(((JavascriptExecutor) shown)
                    .executeScript("return window.shownBeforeSubmit === undefined && document.readyState === 'complete';")));
        } catch (TimeoutException stayed) {
            Object state = script.executeScript("""
                    return { readyState: document.readyState, focused: document.activeElement && document.activeElement.outerHTML.slice(0, 200),
                        said: Array.from(document.querySelectorAll('.message, .error')).map(e => e.textContent.trim()),
                        buttons: Array.from(document.querySelectorAll('button')).map(b => b.textContent.trim() + (b.disabled ? ' (disabled)' : '')) };""");
            throw new AssertionError("still on " + browser.getCurrentUrl() + " " + state + ", console: "
                    + browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage).toList(), stayed);
        }
    }

    /**
     * Activates a button from the keyboard, as many who use a screen reader or a switch do. It is also the one way to press
     * that an emulated phone's touch gestures cannot turn into something else (a long press, a double tap) on a busy machine.
     */
    static void press(WebElement button) {
        button.sendKeys(Keys.ENTER);
    }

    /** The page as it looks now, in target/screenshots. */
    void screenshot(String name) throws IOException {
        Path shot = Path.of("target", "screenshots", name);
        Files.createDirectories(shot.getParent());
        Files.copy(((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        try {
            browser.quit();
        } finally {
            service.stop();
        }
    }
}
