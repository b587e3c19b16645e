package io.orderflow.proof.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.orderflow.proof.faults.Processes.Binaries;
import io.orderflow.support.BesideTheApp;

/**
 * The fault proof's private servers on the binaries the embedded libraries ship, as on a machine with
 * no PostgreSQL or Redis installed: the faults FaultsIT injects do what it expects of them.
 */
@BesideTheApp
class PrivateServersTest {

    @Test
    void postgresCutsItsConnectionsOnAFastRestartAndKeepsItsRows() throws SQLException {
        try (PrivatePostgres postgres = PrivatePostgres.start(Binaries.EMBEDDED);
                Connection before = postgres.connect("public");
                Statement statement = before.createStatement()) {
            statement.execute("CREATE TABLE kept (id int PRIMARY KEY)");
            statement.execute("INSERT INTO kept VALUES (42)");

            postgres.restartFast();

            assertFalse(before.isValid(5), "a connection from before the restart is cut");
            try (Connection after = postgres.connect("public");
                    Statement query = after.createStatement();
                    ResultSet rows = query.executeQuery("SELECT id, current_setting('server_version_num') FROM kept")) {
                assertTrue(rows.next());
                assertEquals(42, rows.getInt(1));
                assertTrue(rows.getString(2).startsWith("17"), "zonky's PostgreSQL 17 ran, not the machine's 15: " + rows.getString(2));
                assertFalse(rows.next());
            }
        }
    }

    @Test
    void redisComesBackEmptyAfterAShutdownAndAnswersOnceAPauseEnds() {
        try (PrivateRedisServer redis = PrivateRedisServer.start(Binaries.EMBEDDED)) {
            assertEquals("OK", redis.command("SET", "kept", "1"));
            assertEquals(1L, redis.command("DBSIZE"));

            redis.shutdownNoSave();
            redis.launch();
            assertEquals(0L, redis.command("DBSIZE"));

            long start = System.nanoTime();
            redis.pauseAllClients(300);
            redis.awaitAnswering();
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(waited.compareTo(Duration.ofMillis(300)) >= 0, "PING answered " + waited.toMillis() + " ms into a 300 ms pause");
        }
    }
}
