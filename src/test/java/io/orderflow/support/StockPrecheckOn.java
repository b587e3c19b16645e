package io.orderflow.support;

import java.util.Map;

import io.quarkus.test.junit.QuarkusTestProfile;

/** The Redis pre-check of stock in front of PostgreSQL, switched on (it is off by default). */
public class StockPrecheckOn implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("orders.stock.precheck.enabled", "true");
    }
}
