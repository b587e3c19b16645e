package io.orderflow.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import io.orderflow.support.BesideTheApp;

/**
 * The Kubernetes manifests the build writes (quarkus-kubernetes, with src/main/kubernetes merged in) are
 * fit to run the service: probes on the health endpoints, resources, settings and secrets by reference,
 * a disruption budget and an autoscaler that fit the Deployment, the schema migrated by a Job ahead of
 * the instances, and time enough to stop gracefully. Read as an operator's {@code kubectl apply} would
 * take them, without a cluster.
 */
@BesideTheApp
class KubernetesManifestsTest {

    private static final String APP = Manifests.APP;

    /** Values committed for dev and test only; none may reach a cluster. */
    private static final List<String> COMMITTED_SECRETS = List.of("sk_test_committed_for_dev_and_test_only",
            "demo-only-session-key-change-me-in-production", "-----BEGIN");
    /** Settings whose values are secrets: they come from the Secret, never from a manifest. */
    private static final List<String> SECRET_NAMES = List.of("PASSWORD", "KEY", "SECRET", "TOKEN", "JDBC_URL", "REDIS_HOSTS", "PUBLICKEY");

    private static Manifests manifests;
    private static JsonNode deployment;
    private static JsonNode container;

    @BeforeAll
    static void readManifests() {
        manifests = Manifests.read();
        deployment = manifests.one("Deployment", APP);
        container = manifests.container("Deployment", APP);
    }

    @Test
    void theDeploymentProbesLivenessReadinessAndStartOnTheHealthEndpoints() {
        int port = Manifests.single(container.get("ports")).get("containerPort").asInt();
        assertThat(container.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/q/health/live");
        assertThat(container.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/q/health/ready");
        assertThat(container.at("/startupProbe/httpGet/path").asText()).isEqualTo("/q/health/started");
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(container.at("/" + probe + "/httpGet/port").asInt()).as(probe + " port").isEqualTo(port);
        }
        // The readiness probe notices a stopping instance well within the shutdown delay's reach of traffic.
        assertThat(container.at("/readinessProbe/periodSeconds").asInt()).isLessThanOrEqualTo(10);
        JsonNode service = manifests.one("Service", APP);
        assertThat(Manifests.single(service.at("/spec/ports")).get("targetPort").asInt()).isEqualTo(port);
    }

    @Test
    void theContainerRequestsAndLimitsItsResources() {
        JsonNode resources = container.get("resources");
        assertThat(resources.at("/requests/cpu").asText()).isNotEmpty();
        long requested = mebibytes(resources.at("/requests/memory").asText());
        long limit = mebibytes(resources.at("/limits/memory").asText());
        // The benchmark measures about 400 MB resident under load.
        assertThat(requested).isGreaterThanOrEqualTo(400);
        assertThat(limit).isGreaterThanOrEqualTo(requested);
    }

    @Test
    void settingsComeFromTheConfigMapAndSecretsFromTheSecretByReferenceOnly() {
        JsonNode envFrom = container.get("envFrom");
        String configMap = envFrom.findValue("configMapRef").get("name").asText();
        assertThat(envFrom.findValue("secretRef").get("name").asText()).isEqualTo(APP + "-secrets");
        assertThat(manifests.one("ConfigMap", configMap).get("data").fieldNames()).toIterable().isNotEmpty();

        assertThat(manifests.resources).as("a Secret with values in the manifests").noneMatch(resource -> resource.get("kind").asText().equals("Secret"));
        List<String> literalNames = new ArrayList<>();
        manifests.resources.forEach(resource -> resource.findValues("env").forEach(env -> env.forEach(variable -> {
            if (variable.has("value")) {
                literalNames.add(variable.get("name").asText());
            }
        })));
        manifests.resources.stream().filter(resource -> resource.get("kind").asText().equals("ConfigMap"))
                .forEach(map -> map.get("data").fieldNames().forEachRemaining(literalNames::add));
        assertThat(literalNames).isNotEmpty().noneMatch(name -> SECRET_NAMES.stream().anyMatch(name::contains));
        assertThat(texts(manifests.resources.stream())).noneMatch(text -> COMMITTED_SECRETS.stream().anyMatch(text::contains));
    }

    /**
     * Behind the ingress every client would be its one address (five wrong passwords from anyone would refuse a user
     * for everyone) and no request HTTPS: the ConfigMap trusts forwarding headers, from the ingress's range only.
     */
    @Test
    void clientsAreToldApartBehindTheIngressWhoseForwardingHeadersAloneAreTrusted() {
        JsonNode settings = manifests.one("ConfigMap", APP + "-config").get("data");
        assertThat(settings.get("QUARKUS_HTTP_PROXY_PROXY_ADDRESS_FORWARDING").asText()).isEqualTo("true");
        assertThat(settings.get("QUARKUS_HTTP_PROXY_ALLOW_X_FORWARDED").asText()).isEqualTo("true");
        assertThat(settings.get("QUARKUS_HTTP_PROXY_TRUSTED_PROXIES").asText()).as("the proxies trusted").matches("[0-9./:,a-f]+");
        // Served over HTTPS: the session cookie is host-only (HostOnlySessionCookieTest signs in with it).
        assertThat(settings.get("QUARKUS_HTTP_AUTH_FORM_COOKIE_NAME").asText()).isEqualTo("__Host-orders-session");
    }

    /** /q/metrics answers only a signed-in metrics reader: Prometheus scrapes this service's pods with the metrics Secret's user. */
    @Test
    void prometheusScrapesTheServiceSignedInWithTheMetricsSecret() {
        assertThat(manifests.resources).filteredOn(resource -> resource.get("kind").asText().equals("ServiceMonitor")).hasSize(1);
        JsonNode monitor = manifests.one("ServiceMonitor", APP);
        JsonNode service = manifests.one("Service", APP);
        monitor.at("/spec/selector/matchLabels").fields().forEachRemaining(
                label -> assertThat(service.at("/metadata/labels").get(label.getKey())).as(label.getKey()).isEqualTo(label.getValue()));
        assertThat(monitor.at("/spec/selector/matchLabels").size()).as("a selector that picks this service, not every one").isPositive();
        JsonNode endpoint = Manifests.single(monitor.at("/spec/endpoints"));
        assertThat(endpoint.get("path").asText()).isEqualTo("/q/metrics");
        assertThat(endpoint.get("port").asText()).isEqualTo(Manifests.single(service.at("/spec/ports")).get("name").asText());
        assertThat(endpoint.at("/basicAuth/username/name").asText()).isEqualTo(APP + "-metrics");
        assertThat(endpoint.at("/basicAuth/password/name").asText()).isEqualTo(APP + "-metrics");
    }

    /** The alerts go to the Prometheus operator beside the monitor, labelled as the service is (MonitoringTest checks the rules themselves). */
    @Test
    void theAlertRulesAreAppliedBesideTheMonitor() {
        JsonNode rule = manifests.one("PrometheusRule", APP);
        assertThat(rule.at("/metadata/labels/app.kubernetes.io~1name").asText()).isEqualTo(APP);
        assertThat(rule.at("/spec/groups/0/rules").size()).as("rules").isPositive();
    }

    @Test
    void theSchemaIsMigratedByAJobTheInstancesWaitFor() {
        JsonNode migrator = manifests.container("Job", Manifests.MIGRATION_JOB);
        assertThat(Manifests.literalEnv(migrator).get("QUARKUS_INIT_AND_EXIT")).isEqualTo("true");
        assertThat(Manifests.literalEnv(migrator).get("QUARKUS_FLYWAY_ACTIVE")).isEqualTo("true");
        assertThat(migrator.get("envFrom")).isEqualTo(container.get("envFrom"));
        assertThat(migrator.get("image")).isEqualTo(container.get("image"));
        assertThat(Manifests.literalEnv(container).get("QUARKUS_FLYWAY_ACTIVE")).isEqualTo("false");
        assertThat(texts(StreamSupport.stream(deployment.at("/spec/template/spec/initContainers").spliterator(), false)))
                .contains(Manifests.MIGRATION_JOB);
    }

    @Test
    void theDisruptionBudgetAndTheAutoscalerFitTheDeployment() {
        JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
        JsonNode budget = manifests.one("PodDisruptionBudget", APP);
        budget.at("/spec/selector/matchLabels").fields()
                .forEachRemaining(label -> assertThat(podLabels.get(label.getKey())).as(label.getKey()).isEqualTo(label.getValue()));
        int replicas = deployment.at("/spec/replicas").asInt();
        assertThat(budget.at("/spec/maxUnavailable").asInt()).isPositive().isLessThan(replicas);

        JsonNode autoscaler = manifests.one("HorizontalPodAutoscaler", APP);
        assertThat(autoscaler.at("/spec/scaleTargetRef/kind").asText()).isEqualTo("Deployment");
        assertThat(autoscaler.at("/spec/scaleTargetRef/name").asText()).isEqualTo(APP);
        assertThat(autoscaler.at("/spec/minReplicas").asInt()).isEqualTo(replicas);
        int most = autoscaler.at("/spec/maxReplicas").asInt();
        assertThat(most).isGreaterThan(replicas);
        // Every instance at its pool size stays under PostgreSQL's default max_connections (100), with room to spare.
        int pool = Integer.parseInt(manifests.one("ConfigMap", APP + "-config").at("/data/QUARKUS_DATASOURCE_JDBC_MAX_SIZE").asText());
        assertThat(most * pool).isLessThanOrEqualTo(90);
        // A rolling update never goes below the replicas it asked for.
        assertThat(deployment.at("/spec/strategy/rollingUpdate/maxUnavailable").asText()).isEqualTo("0");
        // Selectors without the version: the next version's rollout replaces these pods.
        assertThat(deployment.at("/spec/selector/matchLabels").has("app.kubernetes.io/version")).isFalse();
    }

    @Test
    void theGracePeriodOutlastsTheShutdownDelayAndTimeout() throws IOException {
        Properties settings = new Properties();
        try (InputStream in = KubernetesManifestsTest.class.getResourceAsStream("/application.properties")) {
            settings.load(in);
        }
        assertThat(settings.getProperty("quarkus.shutdown.delay-enabled")).isEqualTo("true");
        Duration delay = Duration.parse("PT" + settings.getProperty("quarkus.shutdown.delay"));
        Duration timeout = Duration.parse("PT" + settings.getProperty("quarkus.shutdown.timeout"));
        Duration grace = Duration.ofSeconds(deployment.at("/spec/template/spec/terminationGracePeriodSeconds").asLong());
        assertThat(delay).isPositive();
        assertThat(grace).isGreaterThan(delay.plus(timeout));
    }

    /** Every text value anywhere in these resources. */
    private static List<String> texts(Stream<JsonNode> nodes) {
        List<String> texts = new ArrayList<>();
        nodes.forEach(node -> collectTexts(node, texts));
        return texts;
    }

    private static void collectTexts(JsonNode node, List<String> texts) {
        if (node.isContainerNode()) {
            node.forEach(child -> collectTexts(child, texts));
        } else {
            texts.add(node.asText());
        }
    }

    private static long mebibytes(String quantity) {
        Map<String, Long> units = Map.of("Mi", 1L, "Gi", 1024L);
        for (var unit : units.entrySet()) {
            if (quantity.endsWith(unit.getKey())) {
                return Long.parseLong(quantity.substring(0, quantity.length() - 2)) * unit.getValue();
            }
        }
        throw new IllegalArgumentException("Not in Mi or Gi: " + quantity);
    }
}
