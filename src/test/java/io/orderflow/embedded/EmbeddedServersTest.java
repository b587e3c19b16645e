package io.orderflow.embedded;

import static io.orderflow.support.Api.newOrder;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A test run where the configured PostgreSQL or Redis does not answer (TEST_POSTGRES_URL or
 * TEST_REDIS_PORT at a closed port, no network, or ORDERS_EMBEDDED=always) runs on the embedded
 * servers: PostgreSQL 17 from zonky and redis-server 6.2 from embedded-redis. .ci/run runs this class
 * in a network namespace without the shared servers; elsewhere it checks the configured ones are used.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class EmbeddedServersTest {

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @ConfigProperty(name = "quarkus.redis.hosts")
    String redisHosts;

    @Inject
    RedisDataSource redis;

    @Test
    void theAppUsesTheServersTheRunChose() {
        assertThat(jdbcUrl).isEqualTo(TestServers.POSTGRES_URL + "?currentSchema=" + TestServers.schema());
        assertThat(redisHosts).isEqualTo("redis://" + TestServers.REDIS_HOST + ":" + TestServers.REDIS_PORT);
    }

    @Test
    void theEmbeddedPostgresqlIsVersion17() throws Exception {
        try (Connection connection = TestServers.connect();
                Statement statement = connection.createStatement();
                ResultSet version = statement.executeQuery("SHOW server_version")) {
            version.next();
            if (TestServers.embeddedPostgres()) {
                assertThat(version.getString(1)).startsWith("17.");
            } else {
                assertThat(version.getString(1)).doesNotStartWith("17.5");
            }
        }
    }

    @Test
    void theEmbeddedRedisIsVersion6() {
        String info = redis.execute("INFO", "server").toString();
        if (TestServers.embeddedRedis()) {
            assertThat(info).contains("redis_version:6.2.");
        } else {
            assertThat(info).contains("redis_version:").doesNotContain("redis_version:6.2.6");
        }
    }

    @Test
    void anOrderIsPlacedAndStored() {
        String id = newOrder("alice");
        assertThat(Orders.value("SELECT status FROM orders WHERE id = ?", id)).isEqualTo("created");
    }
}
