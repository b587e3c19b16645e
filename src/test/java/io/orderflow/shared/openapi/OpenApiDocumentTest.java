package io.orderflow.shared.openapi;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.problem.Problem;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;

/**
 * The document at /q/openapi is valid OpenAPI, complete enough to build a client on, and is the
 * one committed in src/test/openapi, from which the build generates the client GeneratedClientTest uses.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class OpenApiDocumentTest {

    static final Path COMMITTED = Path.of("src/test/openapi/orders-api.json");
    static final Path SERVED = Path.of("target/openapi/orders-api.json");
    private static final Pattern CODE = Pattern.compile("`[a-z0-9]+(-[a-z0-9]+)*`");
    private static final List<Map<String, List<String>>> BASIC_OR_BEARER = List.of(Map.of("basic", List.of()), Map.of("bearer", List.of()));
    private static final List<Map<String, List<String>>> BASIC_BEARER_OR_SANDBOX_KEY = List.of(Map.of("basic", List.of()),
            Map.of("bearer", List.of()), Map.of("sandboxKey", List.of()));

    private static final List<Map<String, List<String>>> PROVIDER_SIGNED = List.of(Map.of("providerSignature", List.of()));

    private String served;
    private OpenAPI document;

    /** Per test: RestAssured knows the app's port only once a test runs. */
    @BeforeEach
    void fetch() throws IOException {
        served = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200).extract().asString();
        // Kept where refreshing the committed copy is one cp (see theCommittedDocumentIsTheServedOne).
        Files.createDirectories(SERVED.getParent());
        Files.writeString(SERVED, served);
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(served, null, options);
        assertThat(result.getMessages()).as("what swagger-parser finds wrong with /q/openapi").isEmpty();
        document = result.getOpenAPI();
    }

    @Test
    void theDocumentDeclaresItsServerAndBothWaysToSignIn() {
        assertThat(document.getServers()).isNotEmpty();
        assertThat(document.getComponents().getSecuritySchemes()).containsOnlyKeys("basic", "bearer", "sandboxKey", "providerSignature");
        assertThat(document.getComponents().getSecuritySchemes().get("sandboxKey").getScheme()).isEqualTo("bearer");
        assertThat(document.getComponents().getSecuritySchemes().get("basic").getScheme()).isEqualTo("basic");
        assertThat(document.getComponents().getSecuritySchemes().get("bearer").getScheme()).isEqualTo("bearer");
        assertThat(document.getComponents().getSecuritySchemes().get("bearer").getBearerFormat()).isEqualTo("JWT");
    }

    @Test
    void everyOperationHasAnIdSecurityAndAClientError() {
        List<String> missing = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        operations().forEach((name, operation) -> {
            if (operation.getOperationId() == null) {
                missing.add(name + ": no operationId");
            }
            ids.add(operation.getOperationId());
            if (operation.getSecurity() == null) {
                missing.add(name + ": no security");
            }
            if (operation.getResponses().keySet().stream().noneMatch(status -> status.startsWith("4"))) {
                missing.add(name + ": no 4xx answer");
            }
        });
        assertThat(missing).isEmpty();
        assertThat(ids).doesNotHaveDuplicates().allMatch(id -> id.matches("[a-z][A-Za-z]+"), "camelCase");
    }

    @Test
    void everyOperationAcceptsBasicOrBearerAndAnswers401() {
        List<String> wrong = new ArrayList<>();
        operations().forEach((name, operation) -> {
            // The sandbox's providers, which stand in for third parties, take their own API key too.
            boolean provider = name.contains(" /sandbox/") && !name.equals("GET /sandbox/ledger");
            // The provider's notifications are signed, not signed in: a bad signature is a 400, as providers expect.
            boolean signed = name.equals("POST /payments/provider-events");
            if (!requirements(operation).equals(signed ? PROVIDER_SIGNED : provider ? BASIC_BEARER_OR_SANDBOX_KEY : BASIC_OR_BEARER)) {
                wrong.add(name + ": security " + requirements(operation));
            }
            if (!signed && !operation.getResponses().containsKey("401")) {
                wrong.add(name + ": no 401");
            }
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void everyErrorAnswerIsAProblemDetailNamingItsCodes() {
        List<String> wrong = new ArrayList<>();
        operations().forEach((name, operation) -> operation.getResponses().forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                MediaType problem = response.getContent() == null ? null : response.getContent().get(Problem.MEDIA_TYPE);
                // The sandbox answers as a provider would, in its own JSON.
                boolean sandboxAnswer = name.contains(" /sandbox/") && response.getContent() != null
                        && response.getContent().containsKey("application/json");
                if (!sandboxAnswer && (problem == null || !"#/components/schemas/Problem".equals(problem.getSchema().get$ref()))) {
                    wrong.add(name + " " + status + ": not a problem detail");
                }
                if (problem != null && !CODE.matcher(response.getDescription()).find()) {
                    wrong.add(name + " " + status + ": names no code");
                }
            }
        }));
        assertThat(wrong).isEmpty();
        operations().forEach((name, operation) -> assertThat(operation.getResponses()).as(name).containsKey("503"));
        assertThat(document.getComponents().getSchemas().get("Problem").getProperties())
                .containsKeys("type", "title", "status", "detail", "code");
    }

    @Test
    void theWebPagesAreNotPartOfTheApi() {
        assertThat(document.getPaths().keySet())
                .noneMatch(path -> path.equals("/") || path.startsWith("/checkout") || path.startsWith("/login"));
    }

    @Test
    void theCommittedDocumentIsTheServedOne() throws IOException {
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(Files.readString(COMMITTED)))
                .as("%s, from which the build generates the API client, is not what /q/openapi serves. If the change to the API "
                        + "is meant, refresh it with:%n  cp %s %s", COMMITTED, SERVED, COMMITTED)
                .isEqualTo(json.readTree(served));
    }

    private Map<String, Operation> operations() {
        Map<String, Operation> operations = new TreeMap<>();
        document.getPaths().forEach((path, item) -> item.readOperationsMap()
                .forEach((method, operation) -> operations.put(method + " " + path, operation)));
        return operations;
    }

    private static List<Map<String, List<String>>> requirements(Operation operation) {
        return operation.getSecurity().stream().map(requirement -> (Map<String, List<String>>) new HashMap<>(requirement)).toList();
    }
}
