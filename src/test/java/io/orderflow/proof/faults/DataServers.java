package io.orderflow.proof.faults;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/** Where a deployment's PostgreSQL and Redis run: what its instances are told, and how the audit reads the database. */
interface DataServers extends AutoCloseable {

    /** The instances' settings for the database, in the schema, and for Redis. */
    Map<String, String> environment(String schema);

    /** A connection to the database, in the schema, wherever its primary is now. */
    Connection connect(String schema) throws SQLException;

    @Override
    void close();
}
