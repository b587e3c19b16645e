package io.orderflow.support;

import static io.orderflow.support.Api.as;

import io.restassured.response.Response;

/** What the sandbox providers did for an order, as staff see it at GET /sandbox/ledger. */
public record Ledger(int charges, int refunds, int shipments, int chargeCalls, int refundCalls, int shipmentCalls) {

    public static Ledger of(String orderId) {
        Response ledger = as("ops").queryParam("orderId", orderId).get("/sandbox/ledger");
        ledger.then().statusCode(200);
        return new Ledger(ledger.path("charges.size()"), ledger.path("refunds.size()"), ledger.path("shipments.size()"),
                ledger.path("requests.charge"), ledger.path("requests.refund"), ledger.path("requests.shipment"));
    }
}
