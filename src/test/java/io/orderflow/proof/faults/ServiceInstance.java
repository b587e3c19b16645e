package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.orderflow.support.ChildProcesses;
import io.orderflow.support.ReservedPorts;

/** One packaged instance of the service (java -jar quarkus-run.jar), on its own HTTP port, with its log in a file. */
final class ServiceInstance {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** C1 only and a modest heap: three instances and the proof share two cores, and quick restarts matter more than peak speed. */
    static final List<String> PROOF_JVM = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx512m");
    private static final int LOG_LINES_ON_FAILURE = 40;

    private final String name;
    private final int port;
    private final Path jar;
    private final Path log;
    private final Map<String, String> environment;
    private final List<String> jvmOptions;
    private final HttpClient http;
    /** Settings over the deployment's own, for the starts from now on. */
    private Map<String, String> overrides = Map.of();
    private Process process;

    ServiceInstance(String name, Path jar, Path log, Map<String, String> environment, List<String> jvmOptions, HttpClient http) {
        this.name = name;
        this.port = ReservedPorts.next();
        this.jar = jar;
        this.log = log;
        this.environment = environment;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.http = http;
        try {
            // One log a run; the instance's restarts within the run append to it.
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String name() {
        return name;
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Its next starts use these settings over the deployment's own; none: as deployed. */
    void configure(Map<String, String> settings) {
        overrides = Map.copyOf(settings);
    }

    void start() {
        List<String> command = Stream.of(Stream.of("java"), jvmOptions.stream(), Stream.of("-jar", jar.toAbsolutePath().toString()))
                .flatMap(part -> part).toList();
        ProcessBuilder builder = Processes.yielding(command.toArray(String[]::new)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        builder.environment().putAll(overrides);
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot start " + name, e);
        }
    }

    void awaitReady(Duration within) {
        Processes.require(within, name + " ready (log: " + log + ")", () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited while starting (exit code " + process.exitValue() + "); the end of " + log + ":\n"
                        + lastLines(LOG_LINES_ON_FAILURE));
            }
            return ready();
        });
    }

    /** The log's last lines, so that a failed start says why wherever the log itself is gone. */
    private String lastLines(int count) {
        try (Stream<String> lines = Files.lines(log)) {
            List<String> all = lines.toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - count), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** GET /q/health/ready answers 200 (UP). */
    boolean ready() {
        return healthy("/q/health/ready");
    }

    /** GET /q/health/live answers 200 (UP). */
    boolean live() {
        return healthy("/q/health/live");
    }

    private boolean healthy(String check) {
        try {
            HttpRequest probe = HttpRequest.newBuilder(base().resolve(check)).timeout(PROBE_TIMEOUT).GET().build();
            return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The operating system's id of its process while it runs. */
    long pid() {
        return process.pid();
    }

    /** The process runs (it may still be starting). */
    boolean running() {
        return process != null && process.isAlive();
    }

    /** The value of one series in GET /q/metrics, such as {@code orders_deadlines_fired_total{event="expire"}}; 0 while it has none. */
    double metric(String series) {
        try {
            HttpRequest scrape = HttpRequest.newBuilder(base().resolve("/q/metrics")).timeout(PROBE_TIMEOUT)
                    .header("Authorization", Refunds.STAFF).GET().build();
            HttpResponse<String> metrics = http.send(scrape, HttpResponse.BodyHandlers.ofString());
            if (metrics.statusCode() != 200) {
                throw new IllegalStateException(name + " answered /q/metrics with " + metrics.statusCode());
            }
            Matcher value = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(metrics.body());
            return value.find() ? Double.parseDouble(value.group(1)) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(name + " did not answer /q/metrics", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** kill -9: the JVM dies mid-request, nothing of it runs again. */
    void kill() {
        process.destroyForcibly();
        ChildProcesses.awaitExit(process);
    }

    /** Sends SIGTERM and returns at once: the instance stops gracefully while the caller watches. */
    void signalStop() {
        process.destroy();
    }

    /** Whether the process has exited within this long. */
    boolean exitedWithin(Duration limit) {
        try {
            return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A normal stop (SIGTERM), as at the end of the proof. */
    void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            ChildProcesses.awaitExit(process);
        }
    }
}
