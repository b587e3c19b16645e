package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.orderflow.support.ReservedPorts;

/**
 * A pg_auto_failover formation of the proof's own: a monitor and two data nodes, a primary and its
 * synchronous standby, from the machine's PostgreSQL 15 and pg_autoctl (Debian's
 * postgresql-15-auto-failover), in a temporary directory on reserved ports; the machine's shared server
 * is never touched. pg_autoctl refuses to run as root, so when this JVM is root every keeper runs as the
 * postgres OS user, which owns the directory; PostgreSQL 15's programs come first on its PATH. Trust
 * authentication, no SSL, superuser postgres.
 *
 * <p>A keeper forks a supervisor ("pg_autoctl: start/stop postgres") that restarts a postmaster that died:
 * a node is killed whole by SIGKILL of the keeper, that supervisor and the postmaster together, after
 * collecting the whole process tree (once a parent dies its children are re-parented and no longer found
 * under it). The monitor then promotes the standby, after about 50 s with pg_auto_failover's defaults
 * (the node is unhealthy after 20 s without news, then the old primary gets 30 s to demote itself).
 */
final class PrivatePgFormation implements AutoCloseable {

    private static final Path BIN = Path.of("/usr/lib/postgresql/15/bin");
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));
    static final String USER = "postgres";
    private static final String MONITOR_USER = "autoctl_node";
    private static final String HOST = "127.0.0.1";
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(180);
    /** The longest one step (a node created, a failover, a node back as standby) may take. */
    private static final Duration STEP_LIMIT = Duration.ofSeconds(180);
    /** The states in which a node takes writes: alone, without a standby in sync yet, with one. */
    private static final Set<String> WRITABLE_STATES = Set.of("single", "wait_primary", "primary");
    /**
     * fsync is off, as in {@link PrivatePostgres}: the faults here kill processes, whose writes the kernel
     * still holds, never the machine's power. Written with ALTER SYSTEM on the first node before the
     * standby copies it (postgresql.auto.conf comes along), and on the monitor: pg_autoctl writes the
     * settings it needs into its own include file, which postgresql.auto.conf overrides.
     */
    private static final List<String> FAST = List.of("ALTER SYSTEM SET fsync = off", "SELECT pg_reload_conf()");

    private final Path dir;
    private final Keeper monitor;
    private final List<Keeper> nodes;
    private Keeper killed;
    private Connection monitorConnection;

    private PrivatePgFormation(Path dir) {
        this.dir = dir;
        this.monitor = new Keeper(dir, "mon", ReservedPorts.next());
        this.nodes = List.of(new Keeper(dir, "n1", ReservedPorts.next()), new Keeper(dir, "n2", ReservedPorts.next()));
    }

    /** Whether the machine has pg_autoctl: Debian's package puts it in /usr/bin, a build from source beside PostgreSQL's programs. */
    static boolean installed() {
        return Stream.concat(Stream.of(BIN.toString()), Stream.of(System.getenv("PATH").split(":")))
                .anyMatch(bin -> Files.isExecutable(Path.of(bin, "pg_autoctl")));
    }

    static PrivatePgFormation start() {
        Path dir;
        try {
            dir = Files.createTempDirectory("proof-pgaf-");
            for (String xdg : List.of("config", "data", "run")) {
                Files.createDirectory(dir.resolve(xdg));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (ROOT) {
            Processes.run(COMMAND_TIMEOUT, "chown", "-R", USER + ":" + USER, dir.toString());
        }
        PrivatePgFormation formation = new PrivatePgFormation(dir);
        try {
            formation.create();
            return formation;
        } catch (RuntimeException e) {
            formation.close();
            throw e;
        }
    }

    private void create() {
        monitor.launch("create", "monitor", "--pgdata", monitor.pgdata.toString(), "--pgport", String.valueOf(monitor.port), "--hostname", HOST,
                "--auth", "trust", "--no-ssl", "--run");
        awaitStates("the monitor answers", Map.of());
        execute(monitor.port, "postgres", FAST);
        Keeper first = nodes.get(0);
        Keeper second = nodes.get(1);
        launchNode(first);
        awaitStates("the first node runs alone", Map.of(first.port, "single"));
        execute(first.port, "postgres", FAST);
        launchNode(second);
        awaitStates("the second node is the first's synchronous standby", Map.of(first.port, "primary", second.port, "secondary"));
        awaitWritable(first.port);
    }

    private void launchNode(Keeper node) {
        String monitorUri = "postgres://" + MONITOR_USER + "@" + HOST + ":" + monitor.port + "/pg_auto_failover?sslmode=disable";
        node.launch("create", "postgres", "--pgdata", node.pgdata.toString(), "--pgport", String.valueOf(node.port), "--hostname", HOST,
                "--auth", "trust", "--no-ssl", "--monitor", monitorUri, "--run");
    }

    /** Both data nodes; the driver connects to the one that takes writes. */
    String jdbcUrl(String database) {
        return "jdbc:postgresql://" + nodes.stream().map(node -> HOST + ":" + node.port).collect(Collectors.joining(",")) + "/" + database
                + "?targetServerType=primary";
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), USER, "");
    }

    /** The port of the node the monitor holds as the primary (also while it has no standby in sync). */
    int primaryPort() {
        List<Integer> primaries = states().stream().filter(state -> state.is(WRITABLE_STATES)).map(NodeState::port).toList();
        if (primaries.size() != 1) {
            throw new IllegalStateException("Not one primary: " + describe());
        }
        return primaries.get(0);
    }

    /** The data nodes' ports. */
    List<Integer> ports() {
        return nodes.stream().map(node -> node.port).toList();
    }

    /** CREATE DATABASE on the primary; the standby gets it by replication. */
    void createDatabase(String name) {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("Not a plain database name: " + name);
        }
        execute(primaryPort(), "postgres", List.of("CREATE DATABASE " + name));
    }

    /**
     * pg_autoctl perform switchover: the primary drains and demotes itself, the standby is promoted, nothing
     * is lost. Returns how long until the new primary took writes and the old one was its standby again.
     */
    Duration switchover() {
        int before = primaryPort();
        int after = other(before).port;
        long start = System.nanoTime();
        Processes.run(COMMAND_TIMEOUT, autoctl("perform", "switchover", "--pgdata", monitor.pgdata.toString()));
        awaitStates("the switchover to " + after + " ended", Map.of(after, "primary", before, "secondary"));
        awaitWritable(after);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Kills the primary's node whole (keeper, supervisor, postmaster, every backend: SIGKILL), as a machine
     * that dies; returns how long until the monitor had promoted the standby and it took writes.
     */
    Duration killPrimaryWhole() {
        int port = primaryPort();
        Keeper primary = keeperOn(port);
        Keeper standby = other(port);
        List<ProcessHandle> whole = primary.processTree();
        long start = System.nanoTime();
        whole.forEach(ProcessHandle::destroyForcibly);
        Processes.require(Duration.ofSeconds(10), "every process of the killed node ended", () -> whole.stream().noneMatch(ProcessHandle::isAlive));
        Processes.require(Duration.ofSeconds(10), "nothing listens on the killed node's port " + port, () -> !Processes.listening(port));
        killed = primary;
        awaitStates("the standby " + standby.port + " was promoted", Map.of(standby.port, "wait_primary"));
        awaitWritable(standby.port);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * Starts the killed node's keeper again: it rewinds its data onto the new primary's timeline and
     * follows it as its synchronous standby. Returns how long until both nodes were settled so.
     */
    Duration restartKilledNode() {
        if (killed == null) {
            throw new IllegalStateException("No node was killed");
        }
        Keeper node = killed;
        int primary = other(node.port).port;
        long start = System.nanoTime();
        node.launch("run", "--pgdata", node.pgdata.toString());
        awaitStates("the killed node " + node.port + " is the standby again", Map.of(primary, "primary", node.port, "secondary"));
        killed = null;
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /** The monitor's view, one line a node: port, reported state, state assigned. */
    String describe() {
        try {
            return states().stream().map(state -> state.port + " " + state.reported + "/" + state.assigned).collect(Collectors.joining(", "));
        } catch (RuntimeException e) {
            return "(monitor not answering: " + e.getMessage() + ")";
        }
    }

    private Keeper keeperOn(int port) {
        return nodes.stream().filter(node -> node.port == port).findFirst().orElseThrow();
    }

    private Keeper other(int port) {
        return nodes.stream().filter(node -> node.port != port).findFirst().orElseThrow();
    }

    /** Waits until each node named has reported the state the monitor assigned it; fails with the monitor's view. */
    private void awaitStates(String what, Map<Integer, String> expected) {
        boolean reached = Processes.await(STEP_LIMIT, () -> {
            try {
                List<NodeState> states = states();
                return expected.entrySet().stream().allMatch(entry -> states.stream()
                        .anyMatch(state -> state.port == entry.getKey() && state.is(Set.of(entry.getValue()))));
            } catch (RuntimeException notYet) {
                return false;
            }
        });
        if (!reached) {
            throw new IllegalStateException("Not within " + STEP_LIMIT.toSeconds() + " s: " + what + "; the monitor shows " + describe()
                    + "; logs in " + dir);
        }
    }

    private void awaitWritable(int port) {
        Processes.require(STEP_LIMIT, "the node on port " + port + " takes writes", () -> writable(port));
    }

    /**
     * Out of recovery, and a transaction that takes an id commits: with a synchronous standby named but
     * not answering, the commit would wait, past the socket timeout.
     */
    private boolean writable(int port) {
        try (Connection connection = DriverManager.getConnection(nodeUrl(port, "postgres"), USER, "");
                Statement statement = connection.createStatement();
                ResultSet recovery = statement.executeQuery("SELECT pg_is_in_recovery()")) {
            recovery.next();
            if (recovery.getBoolean(1)) {
                return false;
            }
            statement.execute("SELECT txid_current()");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    private static String nodeUrl(int port, String database) {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + database + "?connectTimeout=5&socketTimeout=10";
    }

    private static void execute(int port, String database, List<String> statements) {
        try (Connection connection = DriverManager.getConnection(nodeUrl(port, database), USER, "");
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("On port " + port + ": " + statements, e);
        }
    }

    /** pgautofailover.current_state on the monitor, over one connection kept open (opened again after a failure). */
    private List<NodeState> states() {
        try {
            if (monitorConnection == null || !monitorConnection.isValid(5)) {
                if (monitorConnection != null) {
                    monitorConnection.close();
                }
                monitorConnection = DriverManager.getConnection(nodeUrl(monitor.port, "pg_auto_failover"), MONITOR_USER, "");
            }
            List<NodeState> states = new ArrayList<>();
            try (Statement statement = monitorConnection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT nodeport, current_group_state::text, assigned_group_state::text "
                            + "FROM pgautofailover.current_state('default') ORDER BY nodeport")) {
                while (rows.next()) {
                    states.add(new NodeState(rows.getInt(1), rows.getString(2), rows.getString(3)));
                }
            }
            return states;
        } catch (SQLException e) {
            throw new IllegalStateException("The monitor did not answer", e);
        }
    }

    /** The pg_autoctl command line, as the postgres OS user when this JVM is root, with the formation's own XDG directories. */
    private String[] autoctl(String... arguments) {
        List<String> command = new ArrayList<>(ROOT ? List.of("runuser", "-u", USER, "--") : List.of());
        command.addAll(List.of("env", "PATH=" + BIN + ":" + System.getenv("PATH"), "XDG_CONFIG_HOME=" + dir.resolve("config"),
                "XDG_DATA_HOME=" + dir.resolve("data"), "XDG_RUNTIME_DIR=" + dir.resolve("run"), "pg_autoctl"));
        command.addAll(List.of(arguments));
        return command.toArray(String[]::new);
    }

    /**
     * Stops every keeper it started (SIGTERM to each keeper, which stops its PostgreSQL), kills by PID
     * whatever of their process trees, collected first, is left after 60 s, and removes the directory.
     */
    @Override
    public void close() {
        try {
            List<Keeper> keepers = Stream.concat(nodes.stream(), Stream.of(monitor)).toList();
            List<ProcessHandle> all = keepers.stream().flatMap(keeper -> keeper.processTree().stream()).toList();
            keepers.forEach(keeper -> keeper.autoctlProcess().ifPresent(ProcessHandle::destroy));
            if (monitorConnection != null) {
                try {
                    monitorConnection.close();
                } catch (SQLException ignored) {
                    // the monitor is stopping
                }
            }
            if (!Processes.await(Duration.ofSeconds(60), () -> all.stream().noneMatch(ProcessHandle::isAlive))) {
                all.forEach(ProcessHandle::destroyForcibly);
                Processes.require(Duration.ofSeconds(10), "every process of the formation ended", () -> all.stream().noneMatch(ProcessHandle::isAlive));
            }
        } finally {
            Processes.run(COMMAND_TIMEOUT, "rm", "-rf", dir.toString());
        }
    }

    private record NodeState(int port, String reported, String assigned) {

        boolean is(Set<String> states) {
            return states.contains(reported) && reported.equals(assigned);
        }
    }

    /** One pg_autoctl node: its PGDATA, its PostgreSQL port and the pg_autoctl process that runs it. */
    private final class Keeper {

        final String name;
        final Path pgdata;
        final int port;
        Process process;

        Keeper(Path formation, String name, int port) {
            this.name = name;
            this.pgdata = formation.resolve(name);
            this.port = port;
        }

        void launch(String... arguments) {
            try {
                process = Processes.yielding(autoctl(arguments)).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile())).start();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot start pg_autoctl", e);
            }
        }

        /**
         * What it started, collected before anything is killed, parents before children: runuser, the
         * keeper, its services, the postmaster, its backends; and the postmaster its postmaster.pid
         * names, should it not be among them.
         */
        List<ProcessHandle> processTree() {
            List<ProcessHandle> tree = new ArrayList<>();
            if (process != null) {
                tree.add(process.toHandle());
                for (int i = 0; i < tree.size(); i++) {
                    tree.get(i).children().forEach(tree::add);
                }
            }
            postmaster().filter(postmaster -> !tree.contains(postmaster)).ifPresent(tree::add);
            return tree.stream().filter(ProcessHandle::isAlive).toList();
        }

        /** The topmost pg_autoctl process (below runuser and env, which execs it). */
        Optional<ProcessHandle> autoctlProcess() {
            return processTree().stream().filter(handle -> handle.info().command().map(command -> command.endsWith("/pg_autoctl")).orElse(false))
                    .findFirst();
        }

        private Optional<ProcessHandle> postmaster() {
            Path pidFile = pgdata.resolve("postmaster.pid");
            try {
                return Files.exists(pidFile) ? ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim())) : Optional.empty();
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }
    }
}
