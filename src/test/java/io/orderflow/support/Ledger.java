package io.orderflow.support;

import static io.orderflow.support.Api.as;

import com.fasterxml.jackson.databind.JsonNode;

import io.restassured.response.Response;

/** What the sandbox providers did for an order, as staff see it at GET /sandbox/ledger. */
public record Ledger(int charges, int refunds, int shipments, int chargeCalls, int refundCalls, int shipmentCalls) {

    public static Ledger of(String orderId) {
        Response ledger = as("ops").queryParam("orderId", orderId).get("/sandbox/ledger");
        ledger.then().statusCode(200);
        JsonNode body = Api.json(ledger);
        JsonNode requests = body.path("requests");
        return new Ledger(body.path("charges").size(), body.path("refunds").size(), body.path("shipments").size(),
                requests.path("charge").asInt(), requests.path("refund").asInt(), requests.path("shipment").asInt());
    }
}
