package io.orderflow.ops;

import static io.orderflow.support.Api.as;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.orderflow.support.Metrics;
import io.orderflow.support.MetricsAtStart;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What operators watch is there: every metric docs/operations.md names is served by an instance the moment it has
 * started, with a series at 0 for each label value listed; the shipped alert rules pass promtool, are the
 * runbook's table of alerts and are the same in the PrometheusRule; and every metric the rules and the dashboard
 * read is one the service serves.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class MonitoringTest {

    private static final Path OPERATIONS = Path.of("docs/operations.md");
    private static final Path ALERTS = Path.of("ops/prometheus/alerts.yml");
    private static final Path DASHBOARD = Path.of("ops/grafana/orders.json");
    /** Quarkus's HTTP server meters: an endpoint's series appear with its first request, none before. */
    private static final Set<String> MADE_BY_REQUESTS = Set.of("http_server_requests_seconds");
    /** A metric as the docs name it: {@code orders_x_total}, {@code orders_x_total{label}}, {@code orders_x_total{a=v|w,b}}. */
    private static final Pattern DOCUMENTED = Pattern.compile("`(orders_[a-z_]+)(?:\\{([^}`]*)})?`");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** The series a summary, a timer or a histogram is served as, beside its base name. */
    private static final List<String> SERIES_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max");
    private static final Pattern PROMQL_NAME = Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*+(?!\\s*\\()");
    private static final Set<String> PROMQL_KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");
    /** A selector of one of this service's metrics with its label matchers; a matcher {@code =} or {@code =~}, not a negation. */
    private static final Pattern SELECTOR = Pattern.compile("(orders_[a-z_]+)\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_]+)(=~|=)\"([^\"]*)\"");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    MetricsAtStart atStart;

    @Test
    void everyDocumentedMetricIsServedFromTheStartWithASeriesForEachListedLabelValue() {
        List<Sample> served = samples(atStart.scrape());
        Map<String, Map<String, List<String>>> documented = documentedMetrics();
        assertThat(documented).as("metrics named in docs/operations.md").hasSizeGreaterThanOrEqualTo(30);
        documented.forEach((metric, labels) -> {
            List<Sample> series = served.stream().filter(sample -> sample.family().equals(metric)).toList();
            assertThat(series).as("%s at start", metric).isNotEmpty();
            labels.forEach((label, values) -> {
                assertThat(series).as("%s{%s} at start", metric, label).anyMatch(sample -> sample.labels().containsKey(label));
                values.forEach(value -> assertThat(series).as("%s{%s=\"%s\"} at start", metric, label, value)
                        .anyMatch(sample -> value.equals(sample.labels().get(label))));
            });
        });
    }

    @Test
    void promtoolAcceptsTheAlertRules() throws IOException, InterruptedException {
        Process promtool = new ProcessBuilder("promtool", "check", "rules", ALERTS.toString()).redirectErrorStream(true).start();
        String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(promtool.waitFor()).as(output).isZero();
        assertThat(output).contains("SUCCESS");
    }

    @Test
    void theRulesAreTheRunbooksAlertsWithWhatToDoAndThePrometheusRuleCarriesTheSame() {
        JsonNode alerts = read(YAML, ALERTS);
        assertThat(read(YAML, Manifests.PROMETHEUS_RULE).at("/spec/groups")).as("the PrometheusRule's groups").isEqualTo(alerts.get("groups"));
        List<JsonNode> rules = rules(alerts).toList();
        assertThat(rules).extracting(rule -> rule.get("expr").asText() + (rule.has("for") ? " for " + rule.get("for").asText() : ""))
                .containsExactlyInAnyOrderElementsOf(documentedAlerts());
        assertThat(rules).allSatisfy(rule -> {
            assertThat(rule.at("/annotations/summary").asText()).as("summary of %s", rule.get("alert")).isNotBlank();
            assertThat(rule.at("/annotations/description").asText()).as("description of %s", rule.get("alert")).isNotBlank();
        });
    }

    @Test
    void everyMetricTheRulesAndTheDashboardReadIsServed() {
        List<Sample> startSamples = samples(atStart.scrape());
        Set<String> atStartNames = names(startSamples);
        as("alice").get("/products").then().statusCode(200);
        Set<String> afterARequest = names(samples(Metrics.scrape().then().statusCode(200).extract().asString()));

        Map<String, List<String>> expressions = new LinkedHashMap<>();
        expressions.put(ALERTS.toString(), rules(read(YAML, ALERTS)).map(rule -> rule.get("expr").asText()).toList());
        expressions.put(Manifests.PROMETHEUS_RULE.toString(), StreamSupport.stream(read(YAML, Manifests.PROMETHEUS_RULE).at("/spec/groups").spliterator(), false)
                .flatMap(group -> StreamSupport.stream(group.get("rules").spliterator(), false)).map(rule -> rule.get("expr").asText()).toList());
        expressions.put(DASHBOARD.toString(), StreamSupport.stream(read(JSON, DASHBOARD).get("panels").spliterator(), false)
                .flatMap(panel -> StreamSupport.stream(panel.get("targets").spliterator(), false)).map(target -> target.get("expr").asText()).toList());

        expressions.forEach((file, exprs) -> {
            assertThat(exprs).as("expressions of %s", file).isNotEmpty();
            for (String expr : exprs) {
                assertThat(metricNames(expr)).as("metrics of %s", expr).isNotEmpty().allSatisfy(name -> assertThat(
                        MADE_BY_REQUESTS.contains(familyOf(name)) ? afterARequest : atStartNames).as("%s, read by %s in %s", name, expr, file).contains(name));
                Matcher selector = SELECTOR.matcher(expr);
                while (selector.find()) {
                    String metric = selector.group(1);
                    Matcher matcher = MATCHER.matcher(selector.group(2));
                    while (matcher.find()) {
                        String label = matcher.group(1);
                        List<String> values = matcher.group(2).equals("=") ? List.of(matcher.group(3)) : List.of(matcher.group(3).split("\\|"));
                        values.forEach(value -> assertThat(startSamples).as("%s{%s=\"%s\"} at start, read by %s in %s", metric, label, value, expr, file)
                                .anyMatch(sample -> sample.name().equals(metric) && value.equals(sample.labels().get(label))));
                    }
                }
            }
        });
    }

    /** One line of a scrape: its name and labels. */
    record Sample(String name, Map<String, String> labels) {

        /** The metric it belongs to: a summary's, a timer's or a histogram's series are served under its base name plus a suffix. */
        String family() {
            return familyOf(name);
        }
    }

    private static String familyOf(String name) {
        return SERIES_SUFFIXES.stream().filter(name::endsWith).findFirst().map(suffix -> name.substring(0, name.length() - suffix.length()))
                .orElse(name);
    }

    private static List<Sample> samples(String scrape) {
        List<Sample> samples = new ArrayList<>();
        scrape.lines().filter(line -> !line.startsWith("#") && !line.isBlank()).forEach(line -> {
            Matcher sample = SAMPLE.matcher(Metrics.withoutExemplar(line));
            assertThat(sample.matches()).as("a sample: %s", line).isTrue();
            Map<String, String> labels = new LinkedHashMap<>();
            Matcher label = LABEL.matcher(sample.group(2) == null ? "" : sample.group(2));
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            samples.add(new Sample(sample.group(1), labels));
        });
        return samples;
    }

    /** The names a scrape serves, and the base names of its summaries, timers and histograms. */
    private static Set<String> names(List<Sample> samples) {
        Set<String> names = new TreeSet<>();
        samples.forEach(sample -> {
            names.add(sample.name());
            names.add(sample.family());
        });
        return names;
    }

    /** The metrics the section "Health and metrics" names, with the label values it lists for each label (none: open-ended). */
    private static Map<String, Map<String, List<String>>> documentedMetrics() {
        Map<String, Map<String, List<String>>> metrics = new LinkedHashMap<>();
        Matcher named = DOCUMENTED.matcher(section("\n## Health and metrics\n", "\n## "));
        while (named.find()) {
            Map<String, List<String>> labels = metrics.computeIfAbsent(named.group(1), metric -> new LinkedHashMap<>());
            if (named.group(2) != null) {
                for (String label : named.group(2).split(",")) {
                    String[] nameAndValues = label.trim().split("=", 2);
                    labels.put(nameAndValues[0], nameAndValues.length == 1 ? List.of() : List.of(nameAndValues[1].split("\\|")));
                }
            }
        }
        return metrics;
    }

    /** Each expression of the runbook's table of alerts, with its {@code for} as the rules write it ({@code expr for 5m}). */
    private static List<String> documentedAlerts() {
        List<String> alerts = new ArrayList<>();
        section("\n### Alerts\n", "\n## ").lines().filter(line -> line.startsWith("| ")).map(line -> line.split("\\|")[2]).forEach(cell -> {
            Matcher duration = Pattern.compile("for (\\d+) m").matcher(cell);
            String lasting = duration.find() ? " for " + duration.group(1) + "m" : "";
            Matcher expr = Pattern.compile("`([^`]+)`").matcher(cell);
            while (expr.find()) {
                alerts.add(expr.group(1) + lasting);
            }
        });
        assertThat(alerts).as("alerts in the runbook's table").hasSizeGreaterThan(5);
        return alerts;
    }

    /** The metric names an expression reads: what is left once strings, matchers, ranges, groupings, functions and keywords are out. */
    static Set<String> metricNames(String expr) {
        String bare = expr.replaceAll("\"(?:[^\"\\\\]|\\\\.)*\"", "\"\"").replaceAll("\\{[^}]*}", "").replaceAll("\\[[^]]*]", "")
                .replaceAll("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", "");
        Matcher name = PROMQL_NAME.matcher(bare);
        Set<String> names = new TreeSet<>();
        while (name.find()) {
            if (!PROMQL_KEYWORDS.contains(name.group().toLowerCase())) {
                names.add(name.group());
            }
        }
        return names;
    }

    private static Stream<JsonNode> rules(JsonNode alerts) {
        return StreamSupport.stream(alerts.get("groups").spliterator(), false).flatMap(group -> StreamSupport.stream(group.get("rules").spliterator(), false));
    }

    private static String section(String heading, String next) {
        String docs = readString(OPERATIONS);
        int start = docs.indexOf(heading);
        assertThat(start).as("%s in %s", heading.strip(), OPERATIONS).isNotNegative();
        int end = docs.indexOf(next, start + heading.length());
        return docs.substring(start, end < 0 ? docs.length() : end);
    }

    private static JsonNode read(ObjectMapper mapper, Path file) {
        try {
            return mapper.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
