package io.orderflow.shared.redis;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.Hashing;
import io.orderflow.support.Api;
import io.orderflow.support.ClusterSlots;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyScanArgs;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * On a Redis Cluster a script may only touch keys of one slot. Watching Redis (MONITOR) while the
 * service issues a token, places orders with and without an Idempotency-Key, pays and refuses a wrong
 * password, every script call of this run is checked: its keys, computed as the cluster hashes them,
 * share one slot, including every script that takes several keys.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ScriptKeySlotsTest {

    /**
     * The scripts that take several keys: token issue, claim with an Idempotency-Key, complete; a sign-in's
     * reservation (five keys), its release (four) and a wrong password's leaving the checks in flight (two).
     */
    private static final int SEVERAL_KEY_SCRIPTS = 6;
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    @Inject
    RedisDataSource redis;

    @Test
    void everyScriptCallKeepsItsKeysInOneSlot() throws IOException {
        List<List<String>> calls;
        try (Monitor monitor = Monitor.start()) {
            String id = newOrder("alice");
            as("alice").header("Idempotency-Key", UUID.randomUUID().toString()).header("Order-Token", newToken("alice"))
                    .contentType(ContentType.JSON).body(Api.ORDER).post("/orders").then().statusCode(201);
            placeOrder("bob", newToken("bob"), Api.ORDER).then().statusCode(201);
            act("alice", id, "pay").then().statusCode(200);
            // A user never signed in before: the right password is checked, and its reservation given back.
            String fresh = "slots-" + UUID.randomUUID().toString().substring(0, 8);
            Users.add(fresh, "customer");
            given().auth().preemptive().basic(fresh, fresh).get("/products?limit=1").then().statusCode(200);
            given().auth().preemptive().basic("alice", "wrong").post("/orders/token").then().statusCode(401);
            // The marker: the failure's count is in Redis, and no check is in flight any more.
            await().atMost(Duration.ofSeconds(10)).until(() -> failureCounted() && !anyCheckInFlight());
            calls = monitor.scriptCalls();
        }

        List<List<String>> ours = calls.stream().filter(call -> call.size() > 1 && call.get(1).startsWith(TestServers.keyPrefix())).toList();
        assertThat(ours).isNotEmpty().allSatisfy(call -> assertThat(call.subList(1, call.size()).stream().map(ClusterSlots::slot).distinct())
                .as("slots of the keys of %s", call).hasSize(1));
        Set<String> severalKeyScripts = ours.stream().filter(call -> call.size() >= 3).map(call -> call.get(0)).collect(Collectors.toSet());
        assertThat(severalKeyScripts).as("scripts called with several keys").hasSize(SEVERAL_KEY_SCRIPTS);
    }

    /** The wrong password's count for the user at its address exists: its reservation script ran. */
    private boolean failureCounted() {
        return redis.key(String.class).scan(new KeyScanArgs().match(TestServers.keyPrefix() + "*:login-failures:*")).toIterable().iterator()
                .hasNext();
    }

    /** A set of sign-in checks in flight exists until its last check has ended (Redis drops an empty set). */
    private boolean anyCheckInFlight() {
        return redis.key(String.class).scan(new KeyScanArgs().match(TestServers.keyPrefix() + "*:in-flight")).toIterable().iterator().hasNext();
    }

    /** A MONITOR connection to the app's Redis. */
    private static final class Monitor implements AutoCloseable {

        private final Socket socket;
        private final BufferedReader lines;

        private Monitor(Socket socket, BufferedReader lines) {
            this.socket = socket;
            this.lines = lines;
        }

        static Monitor start() throws IOException {
            Socket socket = new Socket(TestServers.REDIS_HOST, TestServers.REDIS_PORT);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            send(socket, "MONITOR");
            BufferedReader lines = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            if (!"+OK".equals(lines.readLine())) {
                throw new IllegalStateException("MONITOR refused");
            }
            return new Monitor(socket, lines);
        }

        /**
         * The EVAL and EVALSHA calls Redis ran so far, each as [script's SHA-1, keys...]: up to a marker
         * sent now on another connection, since MONITOR shows commands in the order Redis ran them.
         */
        List<List<String>> scriptCalls() throws IOException {
            String marker = "script-key-slots-" + UUID.randomUUID();
            try (Socket other = new Socket(TestServers.REDIS_HOST, TestServers.REDIS_PORT)) {
                send(other, "ECHO " + marker);
                other.getInputStream().read();
            }
            List<List<String>> calls = new ArrayList<>();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                List<String> command = arguments(line);
                if (command.equals(List.of("ECHO", marker))) {
                    return calls;
                }
                if (command.size() >= 3 && (command.get(0).equalsIgnoreCase("EVALSHA") || command.get(0).equalsIgnoreCase("EVAL"))) {
                    int keys = Integer.parseInt(command.get(2));
                    // A script sent whole (after NOSCRIPT) is named by its SHA-1, as EVALSHA names it.
                    String script = command.get(0).equalsIgnoreCase("EVAL") ? Hashing.sha1Hex(command.get(1)) : command.get(1);
                    List<String> call = new ArrayList<>(List.of(script));
                    call.addAll(command.subList(3, 3 + keys));
                    calls.add(call);
                }
            }
            throw new IllegalStateException("MONITOR ended before the marker");
        }

        /** A MONITOR line's command and arguments: {@code 1700000000.000000 [0 127.0.0.1:5555] "EVALSHA" "ab12" "1" "key"}. */
        private static List<String> arguments(String line) {
            List<String> arguments = new ArrayList<>();
            int at = line.indexOf("] ");
            StringBuilder argument = null;
            for (int i = at + 2; at >= 0 && i < line.length(); i++) {
                char c = line.charAt(i);
                if (argument == null) {
                    argument = c == '"' ? new StringBuilder() : null;
                } else if (c == '\\') {
                    char escaped = line.charAt(++i);
                    if (escaped == 'x') {
                        argument.append((char) Integer.parseInt(line.substring(i + 1, i + 3), 16));
                        i += 2;
                    } else {
                        argument.append(switch (escaped) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            default -> escaped;
                        });
                    }
                } else if (c == '"') {
                    arguments.add(argument.toString());
                    argument = null;
                } else {
                    argument.append(c);
                }
            }
            return arguments;
        }

        private static void send(Socket socket, String inlineCommand) throws IOException {
            OutputStream out = socket.getOutputStream();
            out.write((inlineCommand + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
