package io.orderflow.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.Uuid;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A Kafka broker of the test's own, in KRaft mode (broker and controller in one process, no ZooKeeper),
 * started from the kafka_2.13 jars on the test class path as a process of its own, so that a test may
 * kill it and start it again on the same port and data: a broker restart. Its data lives in a temporary
 * directory removed at the end. The app then publishes and consumes order events over it
 * (orders.events.transport=kafka).
 */
public class PrivateKafka implements QuarkusTestResourceLifecycleManager {

    /**
     * Formatting the storage and starting a broker take a few seconds alone, and up to a minute each on two cores
     * shared with the proof under faults; the limit only tells a broker that will never start from a slow one.
     */
    private static final Duration START_LIMIT = Duration.ofMinutes(3);
    private static final int LOG_LINES_SHOWN = 30;

    private static int port;
    private static int controllerPort;
    private static Path dir;
    private static Process broker;

    @Override
    public Map<String, String> start() {
        port = ReservedPorts.next();
        controllerPort = ReservedPorts.next();
        try {
            dir = Files.createTempDirectory("private-kafka");
            Files.writeString(dir.resolve("server.properties"), settings());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        run(START_LIMIT, "kafka.tools.StorageTool", "format", "--cluster-id", Uuid.randomUuid().toString(), "--config",
                dir.resolve("server.properties").toString());
        startBroker();
        return Map.of("orders.events.transport", "kafka", "kafka.bootstrap.servers", bootstrapServers());
    }

    @Override
    public void stop() {
        stopBroker();
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int order() {
        return 1;
    }

    public static String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Starts the broker on its port and data, and waits until it takes connections. */
    public static void startBroker() {
        broker = java("kafka.Kafka", dir.resolve("server.properties").toString());
        await().atMost(START_LIMIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            if (!broker.isAlive()) {
                throw new IllegalStateException("The private Kafka broker exited; " + logTail());
            }
            return accepts(port);
        });
    }

    /** kill -9: the broker dies mid-request; what it acknowledged is in its log directory. */
    public static void killBroker() {
        broker.destroyForcibly();
        ChildProcesses.awaitExit(broker);
    }

    public static void stopBroker() {
        if (broker != null && broker.isAlive()) {
            broker.destroy();
            ChildProcesses.awaitExit(broker);
        }
    }

    private static String settings() {
        return String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=4",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=4",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                // A consumer group forms at once, rather than after the 3 s production brokers wait for more members.
                "group.initial.rebalance.delay.ms=0",
                "");
    }

    private static void run(Duration limit, String mainClass, String... arguments) {
        Process tool = java(mainClass, arguments);
        try {
            if (!tool.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS) || tool.exitValue() != 0) {
                tool.destroyForcibly();
                throw new IllegalStateException(mainClass + " failed or did not finish within " + limit + "; " + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A JVM on the test class path, which holds the broker's jars; its output goes to the broker's log. */
    private static Process java(String mainClass, String... arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                mainClass));
        command.addAll(List.of(arguments));
        try {
            return new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("broker.log").toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + mainClass, e);
        }
    }

    /** The end of the broker's log, for a failure's message: the test run's output is often all there is to read. */
    private static String logTail() {
        Path log = dir.resolve("broker.log");
        try {
            List<String> lines = Files.readAllLines(log);
            return "the end of its log (" + log + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_LINES_SHOWN), lines.size()));
        } catch (IOException e) {
            return "its log " + log + " cannot be read: " + e;
        }
    }

    private static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
