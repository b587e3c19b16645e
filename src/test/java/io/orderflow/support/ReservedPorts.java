package io.orderflow.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for servers the tests start and may restart on the same port: taken below the kernel's
 * ephemeral range, which is where every "any free port" bind and every outgoing connection gets its
 * port. A port asked for with port 0 and closed again can be handed to the next program that asks,
 * such as a Quarkus test app starting beside the proof; one below the range is never handed out that
 * way, so it stays free between the check and the server's bind, and between a server's stop and its
 * restart. Each port is given once per test JVM.
 */
public final class ReservedPorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    /** Linux's default, for a machine that does not say. */
    private static final int DEFAULT_EPHEMERAL_LOW = 32768;
    private static final int SPAN = 10_000;
    private static final int HIGHEST = ephemeralLow() - 1;
    /** Above the privileged ports; the default range leaves ten thousand below it. */
    private static final int LOWEST = Math.max(1025, HIGHEST - SPAN);
    private static final AtomicInteger NEXT = new AtomicInteger(firstTry());

    private ReservedPorts() {
    }

    /** A port no server of this machine listens on now, and which no one gets by asking for any free port. */
    public static int next() {
        for (int tried = 0; tried <= HIGHEST - LOWEST; tried++) {
            int port = LOWEST + Math.floorMod(NEXT.getAndIncrement() - LOWEST, HIGHEST - LOWEST + 1);
            if (free(port)) {
                return port;
            }
        }
        throw new IllegalStateException("No free port between " + LOWEST + " and " + HIGHEST);
    }

    /** Where this JVM starts, at random, so that two test runs at once seldom try the same ports. */
    private static int firstTry() {
        if (HIGHEST < LOWEST) {
            throw new IllegalStateException("The kernel's ephemeral ports start at " + (HIGHEST + 1) + ", which leaves none below them for the tests' servers");
        }
        return ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST + 1);
    }

    static int lowest() {
        return LOWEST;
    }

    static int highest() {
        return HIGHEST;
    }

    private static boolean free(int port) {
        try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int ephemeralLow() {
        try {
            // By lines: Files.readString gives only the first byte of this procfs file.
            return Files.isReadable(EPHEMERAL_RANGE) ? Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0])
                    : DEFAULT_EPHEMERAL_LOW;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
