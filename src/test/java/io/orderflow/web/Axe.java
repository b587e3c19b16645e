package io.orderflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** axe-core (ops/a11y, installed by the build's npm ci) run in the page a browser shows. */
final class Axe {

    private static final Path SCRIPT = Path.of("ops", "a11y", "node_modules", "axe-core", "axe.min.js");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String script;

    private Axe(String script) {
        this.script = script;
    }

    static Axe load() {
        assertThat(SCRIPT).as("axe-core, installed by the build (npm ci in ops/a11y)").exists();
        try {
            return new Axe(Files.readString(SCRIPT));
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
    }

    /** axe-core's serious and critical violations on the page as it is now, one line each, named after {@code page}. */
    List<String> serious(WebDriver browser, String page) throws IOException {
        JavascriptExecutor js = (JavascriptExecutor) browser;
        js.executeScript(script);
        String found = (String) js.executeAsyncScript("""
                var done = arguments[arguments.length - 1];
                axe.run(document, { resultTypes: ['violations'] }).then(function (results) { done(JSON.stringify(results.violations)); },
                    function (error) { done(JSON.stringify([{ id: 'axe-failed', impact: 'critical', help: String(error), nodes: [] }])); });""");
        List<String> serious = new ArrayList<>();
        for (JsonNode violation : JSON.readTree(found)) {
            String impact = violation.path("impact").asText();
            if (impact.equals("serious") || impact.equals("critical")) {
                List<String> targets = new ArrayList<>();
                violation.path("nodes").forEach(node -> targets.add(node.path("target").toString()));
                serious.add(page + ": " + violation.path("id").asText() + " (" + impact + "): " + violation.path("help").asText() + " " + targets);
            }
        }
        return serious;
    }
}
