package io.orderflow.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** Ports for private servers that nothing asking for any free port can take from them. */
@FastTest
class ReservedPortsTest {

    @Test
    void eachPortIsGivenOnceAndIsFreeToBind() throws IOException {
        List<Integer> ports = IntStream.range(0, 50).map(i -> ReservedPorts.next()).boxed().toList();

        assertThat(new HashSet<>(ports)).hasSize(ports.size());
        assertThat(ports).allSatisfy(port -> assertThat(port).isBetween(ReservedPorts.lowest(), ReservedPorts.highest()));
        try (ServerSocket server = new ServerSocket(ports.get(0), 1, InetAddress.getLoopbackAddress())) {
            assertThat(server.getLocalPort()).isEqualTo(ports.get(0));
        }
    }

    @Test
    void aPortInUseIsSkipped() throws IOException {
        int last = ReservedPorts.next();
        int taken = last == ReservedPorts.highest() ? ReservedPorts.lowest() : last + 1;
        try (ServerSocket listener = new ServerSocket(taken, 1, InetAddress.getLoopbackAddress())) {
            Set<Integer> given = new HashSet<>();
            for (int i = 0; i < 5; i++) {
                given.add(ReservedPorts.next());
            }
            assertThat(given).doesNotContain(taken);
        }
    }

    @Test
    void programsAskingForAnyFreePortNeverGetOneOfThem() throws IOException {
        int reserved = ReservedPorts.next();
        List<ServerSocket> anyPort = new ArrayList<>();
        try {
            for (int i = 0; i < 500; i++) {
                anyPort.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            assertThat(anyPort).extracting(ServerSocket::getLocalPort)
                    .allSatisfy(port -> assertThat(port).isNotEqualTo(reserved).isGreaterThan(ReservedPorts.highest()));
        } finally {
            for (ServerSocket socket : anyPort) {
                socket.close();
            }
        }
    }
}
