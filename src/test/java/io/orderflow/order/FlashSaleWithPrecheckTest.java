package io.orderflow.order;

import io.orderflow.support.StockPrecheckOn;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The same flash sale with the Redis pre-check of stock in front of PostgreSQL: it may turn a buyer away
 * at first and serve the retry, and the sale still ends with exactly as many orders as units.
 */
@QuarkusTest
@TestProfile(StockPrecheckOn.class)
@WithTestResource(TestServers.class)
class FlashSaleWithPrecheckTest extends FlashSaleTest {
}
