package io.orderflow.proof.faults;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * A Redis Cluster (3 masters, 3 replicas) and a PostgreSQL failover formation (a monitor, a primary and a
 * synchronous standby), each private: what a shop past one machine runs, and what the failover proof
 * kills, promotes and migrates. The instances follow both: the cluster client learns each slot's master,
 * the multi-host JDBC URL finds the primary.
 */
record FailoverServers(PrivatePgFormation formation, PrivateRedisCluster cluster) implements DataServers {

    /** The formation's database the service's schema lives in. */
    private static final String DATABASE = "postgres";
    /** Order events spread over the cluster's slots, as docs/operations.md says to run on a cluster. */
    static final int EVENT_STREAMS = 8;

    static FailoverServers start() {
        PrivatePgFormation formation = PrivatePgFormation.start();
        try {
            return new FailoverServers(formation, PrivateRedisCluster.start());
        } catch (RuntimeException e) {
            formation.close();
            throw e;
        }
    }

    @Override
    public Map<String, String> environment(String schema) {
        return Map.of(
                "QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl(schema),
                "QUARKUS_DATASOURCE_USERNAME", PrivatePgFormation.USER,
                "QUARKUS_REDIS_CLIENT_TYPE", "cluster",
                "QUARKUS_REDIS_HOSTS", cluster.hosts(),
                "ORDERS_EVENTS_STREAMS", Integer.toString(EVENT_STREAMS),
                // A master killed before its replica had the last events must not take them along.
                "ORDERS_EVENTS_REPLICAS", "1");
    }

    @Override
    public Connection connect(String schema) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(schema), PrivatePgFormation.USER, "");
    }

    private String jdbcUrl(String schema) {
        return formation.jdbcUrl(DATABASE) + "&currentSchema=" + schema;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } finally {
            formation.close();
        }
    }
}
