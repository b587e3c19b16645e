package io.orderflow.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.MetricsAtStart;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What operators watch is there: every metric docs/operations.md names is served by an instance the moment it has
 * started, with a series at 0 for each label value listed.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class MonitoringTest {

    private static final Path OPERATIONS = Path.of("docs/operations.md");
    /** A metric as the docs name it: {@code orders_x_total}, {@code orders_x_total{label}}, {@code orders_x_total{a=v|w,b}}. */
    private static final Pattern DOCUMENTED = Pattern.compile("`(orders_[a-z_]+)(?:\\{([^}`]*)})?`");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    /** The series a summary, a timer or a histogram is served as, beside its base name. */
    private static final List<String> SERIES_SUFFIXES = List.of("_bucket", "_count", "_sum", "_max");

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
            Matcher sample = SAMPLE.matcher(line);
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

    private static String section(String heading, String next) {
        String docs = readString(OPERATIONS);
        int start = docs.indexOf(heading);
        assertThat(start).as("%s in %s", heading.strip(), OPERATIONS).isNotNegative();
        int end = docs.indexOf(next, start + heading.length());
        return docs.substring(start, end < 0 ? docs.length() : end);
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
