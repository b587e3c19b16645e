package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/** Running the machine's commands and waiting for conditions with a deadline. */
final class Processes {

    private static final Duration POLL = Duration.ofMillis(50);

    private Processes() {
    }

    /** Where the private servers' binaries come from. */
    enum Binaries {
        /** The machine's PostgreSQL 15 and redis-server where installed, else those the embedded libraries ship. */
        MACHINE_WHERE_PRESENT,
        /** Those the embedded libraries ship, as on a machine with neither installed. */
        EMBEDDED;

        /** {@code -Dproof.binaries=embedded} asks for the shipped ones. */
        static Binaries chosen() {
            return "embedded".equals(System.getProperty("proof.binaries")) ? EMBEDDED : MACHINE_WHERE_PRESENT;
        }
    }

    /**
     * A process of the proof's (a server, an instance, a command) at a lower priority (nice 5): the proof runs
     * beside the Quarkus tests, whose lane is the build's longest, and has time to spare.
     */
    static ProcessBuilder yielding(String... command) {
        return new ProcessBuilder(Stream.concat(Stream.of("nice", "-n", "5"), Stream.of(command)).toList());
    }

    /**
     * Runs a command to its end and returns what it printed; fails on a non-zero exit or past the timeout.
     * The output goes through a file, not a pipe: a server the command starts keeps its inherited
     * output open, and a pipe would then never end.
     */
    static String run(Duration timeout, String... command) {
        Path output = null;
        try {
            output = Files.createTempFile("proof-command-", ".out");
            Process process = yielding(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("Timed out: " + String.join(" ", command));
            }
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("Exit " + process.exitValue() + ": " + String.join(" ", command) + "\n" + printed);
            }
            return printed;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            if (output != null) {
                output.toFile().delete();
            }
        }
    }

    /** Polls the condition until it holds; false if the deadline passed first. */
    static boolean await(Duration within, BooleanSupplier condition) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            pause(POLL);
        }
        return true;
    }

    /** Like {@link #await} but fails with the message when the deadline passes. */
    static void require(Duration within, String what, BooleanSupplier condition) {
        if (!await(within, condition)) {
            throw new IllegalStateException("Not within " + within.toSeconds() + " s: " + what);
        }
    }

    /** Whether a server accepts connections on the port of 127.0.0.1 now. */
    static boolean listening(int port) {
        try (Socket probe = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The gap between two polls, or a client's backoff: never stands in for a condition. */
    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
