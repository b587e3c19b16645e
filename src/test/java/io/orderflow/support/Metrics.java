package io.orderflow.support;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;

/** GET /q/metrics as the monitoring system reads it: signed in, here as the test profile's staff user ops. */
public final class Metrics {

    private Metrics() {
    }

    public static Response scrape() {
        return given().auth().preemptive().basic("ops", "ops").get("/q/metrics");
    }
}
