package io.orderflow.proof.faults;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/** One private PostgreSQL and one private Redis, each a single server: what the proof under faults restarts and stalls. */
record SingleServers(PrivatePostgres postgres, PrivateRedisServer redis) implements DataServers {

    static SingleServers start() {
        PrivatePostgres postgres = PrivatePostgres.start();
        try {
            return new SingleServers(postgres, PrivateRedisServer.start());
        } catch (RuntimeException e) {
            postgres.close();
            throw e;
        }
    }

    @Override
    public Map<String, String> environment(String schema) {
        return Map.of(
                "QUARKUS_DATASOURCE_JDBC_URL", postgres.jdbcUrl(schema),
                "QUARKUS_DATASOURCE_USERNAME", PrivatePostgres.USER,
                "QUARKUS_REDIS_HOSTS", redis.url());
    }

    @Override
    public Connection connect(String schema) throws SQLException {
        return postgres.connect(schema);
    }

    @Override
    public void close() {
        try {
            redis.close();
        } finally {
            postgres.close();
        }
    }
}
