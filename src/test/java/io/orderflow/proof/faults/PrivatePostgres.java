package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A PostgreSQL 15 server of the proof's own, in a temporary directory on a free port, which the proof
 * may restart; the machine's shared server is never touched. Trust authentication, superuser root, as
 * the service's configuration expects.
 */
final class PrivatePostgres implements AutoCloseable {

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);
    static final String USER = "root";
    static final String DATABASE = "postgres";

    private final Path dir;
    private final Path data;
    private final int port;

    private PrivatePostgres(Path dir, int port) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
    }

    static PrivatePostgres start() {
        try {
            Path dir = Files.createTempDirectory("proof-pg-");
            if ("root".equals(System.getProperty("user.name"))) {
                Processes.run(COMMAND_TIMEOUT, "chown", "postgres:postgres", dir.toString());
            }
            PrivatePostgres server = new PrivatePostgres(dir, Processes.freePort());
            server.initAndStart();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void initAndStart() {
        Processes.run(COMMAND_TIMEOUT, Processes.asPostgresUser(BIN.resolve("initdb").toString(), "-D", data.toString(), "-U", USER,
                "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"));
        // Room for three instances' pools (32 each) and the proof's own connections. fsync is off: the
        // faults here are server restarts, which write everything out, never a machine losing power.
        String options = "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off";
        pgCtl("-o", options, "start");
    }

    /** pg_ctl restart -m fast: every connection is cut, the server comes back on the same port with its data. */
    void restartFast() {
        pgCtl("-m", "fast", "restart");
    }

    String jdbcUrl(String schema) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?currentSchema=" + schema;
    }

    Connection connect(String schema) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(schema), USER, "");
    }

    private void pgCtl(String... arguments) {
        String[] command = Stream.concat(Stream.of(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t", "60", "-l",
                dir.resolve("server.log").toString()),
                Stream.of(arguments)).toArray(String[]::new);
        Processes.run(COMMAND_TIMEOUT, Processes.asPostgresUser(command));
    }

    @Override
    public void close() {
        try {
            pgCtl("-m", "immediate", "stop");
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
