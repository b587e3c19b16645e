package io.orderflow.proof.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The refunds owed for a scenario's orders, as the outbox, the payments and the sandbox ledger hold them. */
final class Refunds {

    /** What the sandbox did for one order: its charges and refunds. */
    record Ledger(int charges, int refunds) {
    }

    private static final String IN_LINE_PAST = """
            SELECT count(*) FROM outbox
            WHERE kind = 'refund' AND status = 'PENDING' AND attempts > ? AND order_id = ANY(CAST(? AS uuid[]))""";
    private static final String GIVEN_UP = """
            SELECT count(*) FROM outbox WHERE kind = 'refund' AND status = 'DEAD' AND order_id = ANY(CAST(? AS uuid[]))""";
    private static final String REFUNDED = """
            SELECT count(*) FROM payments WHERE status = 'REFUNDED' AND order_id = ANY(CAST(? AS uuid[]))""";
    /** The Authorization of the deployment's staff user (ops/ops, set by Deployment). */
    static final String STAFF = "Basic " + Base64.getEncoder().encodeToString("ops:ops".getBytes(StandardCharsets.UTF_8));
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Deployment deployment;
    private final List<String> orderIds;

    Refunds(Deployment deployment, List<String> orderIds) {
        this.deployment = deployment;
        this.orderIds = orderIds;
    }

    /** Refunds still in line after more than this many failed attempts. */
    long inLinePast(int attempts) {
        return deployment.number(IN_LINE_PAST, attempts, orderIds);
    }

    /** Refunds dead-lettered: given up on. */
    long givenUp() {
        return deployment.number(GIVEN_UP, orderIds);
    }

    /** Payments the service has recorded as refunded. */
    long refunded() {
        return deployment.number(REFUNDED, orderIds);
    }

    /** What GET /sandbox/ledger?orderId= tells staff of one order. */
    Ledger ledger(URI instance, String orderId) {
        HttpRequest request = HttpRequest.newBuilder(instance.resolve("/sandbox/ledger?orderId=" + orderId)).timeout(Duration.ofSeconds(10))
                .header("Authorization", STAFF).header("Accept", "application/json").GET().build();
        try {
            HttpResponse<String> answer = deployment.http.send(request, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("The ledger of order " + orderId + " answered " + answer.statusCode());
            }
            JsonNode ledger = JSON.readTree(answer.body());
            return new Ledger(ledger.get("charges").size(), ledger.get("refunds").size());
        } catch (IOException e) {
            throw new IllegalStateException("The ledger of order " + orderId + " did not answer", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
