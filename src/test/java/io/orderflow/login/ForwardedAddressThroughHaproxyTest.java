package io.orderflow.login;

import static io.orderflow.support.TightLimits.PER_USER_AND_ADDRESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.ChildProcesses;
import io.orderflow.support.LoopbackClient;
import io.orderflow.support.ReservedPorts;
import io.orderflow.support.TestServers;
import io.orderflow.support.TightLimits;
import io.orderflow.support.UserStoreProxy;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The shipped HAProxy configuration (ops/haproxy.cfg, its frontend as shipped, its backend pointed at
 * this app) in front of an app that trusts forwarding headers, as ops/compose.yaml's replicas do: a
 * client's own X-Forwarded-For changes nothing, its address is its connection's. So a guesser cannot
 * spread its guesses over invented addresses, nor lock a user out at a victim's address by claiming it.
 */
@QuarkusTest
@TestProfile(TightLimits.class)
@WithTestResource(TestServers.class)
@WithTestResource(UserStoreProxy.class)
class ForwardedAddressThroughHaproxyTest {

    private static final Path SHIPPED = Path.of("ops/haproxy.cfg");
    private static final String GUESSER = "127.0.0.77";
    private static final String VICTIM = "127.0.0.78";

    @TestHTTPResource("/")
    URL app;

    private Process haproxy;
    private int port;

    @BeforeEach
    void startHaproxy() throws IOException {
        port = ReservedPorts.next();
        Path config = Files.createTempFile("haproxy-", ".cfg");
        Files.writeString(config, inFrontOfThisApp(Files.readString(SHIPPED)));
        haproxy = new ProcessBuilder("haproxy", "-db", "-f", config.toString()).redirectErrorStream(true)
                .redirectOutput(config.resolveSibling(config.getFileName() + ".log").toFile()).start();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            assertThat(haproxy.isAlive()).as("haproxy running").isTrue();
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
    }

    @AfterEach
    void stopHaproxy() {
        haproxy.destroy();
        ChildProcesses.awaitExit(haproxy);
    }

    @Test
    void aClientsForgedForwardedForChangesNotTheAddressItIsCountedAt() throws IOException {
        String name = "fwd-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");

        List<Integer> guesses = new ArrayList<>();
        for (int i = 0; i <= PER_USER_AND_ADDRESS; i++) {
            // Each guess claims another address, the last one the victim's.
            String claimed = i < PER_USER_AND_ADDRESS ? "203.0.113." + (i + 1) : VICTIM;
            guesses.add(throughHaproxy(GUESSER, name, "guess-" + i, claimed).status());
        }
        System.out.printf("[attack] forged X-Forwarded-For through HAProxy: %d guesses each claiming another address, answers %s%n",
                guesses.size(), guesses);
        assertThat(guesses).as("counted at the guesser's connection, whatever it claimed")
                .containsExactlyElementsOf(expected());

        LoopbackClient.Answer refused = throughHaproxy(GUESSER, name, name, "198.51.100.99");
        assertThat(refused.status()).as("the right password from the guesser, claiming another address").isEqualTo(429);
        assertThat(throughHaproxy(VICTIM, name, name, GUESSER).status()).as("the user at the address the guesser claimed").isEqualTo(200);
    }

    private static List<Integer> expected() {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < PER_USER_AND_ADDRESS; i++) {
            statuses.add(401);
        }
        statuses.add(429);
        return statuses;
    }

    private LoopbackClient.Answer throughHaproxy(String from, String user, String password, String claimedAddress) throws IOException {
        return LoopbackClient.get(from, "127.0.0.1", port, "/products?limit=1", user, password, Map.of("X-Forwarded-For", claimedAddress));
    }

    /** The shipped configuration with its frontend on a free port and its backend this app, without Docker's resolver. */
    private String inFrontOfThisApp(String shipped) {
        String config = shipped.replace("bind :8080", "bind 127.0.0.1:" + port);
        int resolvers = config.indexOf("\nresolvers docker") + 1;
        int frontend = config.indexOf("\nfrontend orders") + 1;
        int backend = config.indexOf("\nbackend replicas") + 1;
        assertThat(resolvers).as("the shipped configuration's sections").isPositive().isLessThan(frontend);
        assertThat(backend).isGreaterThan(frontend);
        return config.substring(0, resolvers) + config.substring(frontend, backend)
                + "backend replicas\n    server app " + app.getHost() + ":" + app.getPort() + "\n";
    }
}
