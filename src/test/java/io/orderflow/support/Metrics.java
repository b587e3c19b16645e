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

    /**
     * The value of one series, named as the scrape prints it ({@code orders_payments_total{outcome="charged"}}, labels in
     * alphabetical order); every documented series is there from the start, so a missing one fails.
     */
    public static double value(String series) {
        return scrape().then().statusCode(200).extract().asString().lines().filter(line -> line.startsWith(series + " "))
                .mapToDouble(line -> Double.parseDouble(withoutExemplar(line).substring(series.length() + 1).trim())).findFirst()
                .orElseThrow(() -> new AssertionError("No series " + series + " in /q/metrics"));
    }

    /**
     * A sample line without the exemplar a traced request leaves on it ({@code 3.0 # {span_id="...",trace_id="..."} 1.0 1796...}),
     * which the scrape shows once a sampled trace has counted.
     */
    public static String withoutExemplar(String line) {
        int exemplar = line.indexOf(" # ");
        return exemplar < 0 ? line : line.substring(0, exemplar);
    }
}
