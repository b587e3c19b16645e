package io.orderflow.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

/**
 * The Kubernetes manifests the build wrote (quarkus-kubernetes) and the ServiceMonitor and PrometheusRule applied beside them,
 * read as {@code kubectl apply} would take them.
 */
final class Manifests {

    static final Path FILE = Path.of(System.getProperty("kubernetes.manifests", "target/kubernetes/kubernetes.yml"));
    static final Path SERVICE_MONITOR = Path.of("ops/kubernetes/service-monitor.yml");
    static final Path PROMETHEUS_RULE = Path.of("ops/kubernetes/prometheus-rule.yml");
    static final String APP = "order-workflow-engine";
    static final String MIGRATION_JOB = APP + "-flyway-init";

    final List<JsonNode> resources;

    private Manifests(List<JsonNode> resources) {
        this.resources = List.copyOf(resources);
    }

    static Manifests read() {
        List<JsonNode> resources = new ArrayList<>();
        YAMLFactory yaml = new YAMLFactory();
        for (Path file : List.of(FILE, SERVICE_MONITOR, PROMETHEUS_RULE)) {
            try (YAMLParser parser = yaml.createParser(file.toFile())) {
                new ObjectMapper(yaml).readValues(parser, JsonNode.class).forEachRemaining(resources::add);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + file + ": run ./mvnw package first", e);
            }
        }
        return new Manifests(resources);
    }

    /** The one resource of this kind and name. */
    JsonNode one(String kind, String name) {
        List<JsonNode> found = resources.stream()
                .filter(resource -> resource.get("kind").asText().equals(kind) && resource.at("/metadata/name").asText().equals(name)).toList();
        assertThat(found).as(kind + " " + name + " in " + FILE + ", " + SERVICE_MONITOR + " and " + PROMETHEUS_RULE).hasSize(1);
        return found.get(0);
    }

    /** The only container of a Deployment's or a Job's pods. */
    JsonNode container(String kind, String name) {
        return single(one(kind, name).at("/spec/template/spec/containers"));
    }

    static JsonNode single(JsonNode array) {
        assertThat(array.isArray() && array.size() == 1).as("one element in " + array).isTrue();
        return array.get(0);
    }

    /** The environment variables a container sets to a value of its own (not those taken from the cluster). */
    static Map<String, String> literalEnv(JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.path("env").forEach(variable -> {
            if (variable.has("value")) {
                env.put(variable.get("name").asText(), variable.get("value").asText());
            }
        });
        return env;
    }
}
