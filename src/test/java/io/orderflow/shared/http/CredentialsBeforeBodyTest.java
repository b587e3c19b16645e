package io.orderflow.shared.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A POST is answered from its headers when its credentials are missing or wrong: a client that announces
 * a 1 MiB body and sends none of it gets its 401 at once, not after the server waited for the body, and
 * the connection closes; a form gets the sign-in page. A body that stops arriving is answered 408.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class CredentialsBeforeBodyTest {

    private static final int MIB = 1 << 20;
    private static final long STALL_MILLIS = 2_000;
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)");

    @TestHTTPResource("/")
    URL app;

    @Test
    void aPostAnnouncingAMebibyteWithoutCredentialsIsRefusedBeforeItsBody() throws IOException {
        List<String> paths = List.of("/orders", "/orders/token", "/products", "/payments/reconciliation", "/orders/x/../../products");
        long start = System.nanoTime();
        for (String path : paths) {
            String answer = headersOnly(path, "application/json");
            assertThat(answer).as(path).startsWith("HTTP/1.1 401").containsIgnoringCase("WWW-Authenticate: Basic realm=\"orders\"")
                    .containsIgnoringCase("Content-Type: application/problem+json").contains("\"code\":\"unauthorized\"");
        }
        System.out.printf("[attack] header-only POSTs announcing 1 MiB without credentials: %d answered 401 in %d ms in all%n", paths.size(),
                (System.nanoTime() - start) / 1_000_000);
        assertThat(headersOnly("/checkout", "application/x-www-form-urlencoded")).startsWith("HTTP/1.1 302").containsIgnoringCase("Location: /login");
    }

    @Test
    void aPostAnnouncingAMebibyteWithWrongCredentialsIsRefusedBeforeItsBodyAndItsConnectionCloses() throws IOException {
        Users.add("announcer", "customer");
        long start = System.nanoTime();
        for (String credentials : List.of("announcer:not-the-password", "no-such-user-announcing:guess")) {
            try (Socket socket = new Socket(app.getHost(), app.getPort())) {
                socket.setSoTimeout(5_000);
                String answer = send(socket, "POST /orders/token HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic(credentials)
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + MIB + "\r\n\r\n");
                assertThat(answer).as(credentials).startsWith("HTTP/1.1 401").containsIgnoringCase("WWW-Authenticate: Basic realm=\"orders\"")
                        .containsIgnoringCase("Connection: close").contains("\"code\":\"unauthorized\"");
                assertThat(socket.getInputStream().read()).as("the connection closes after the answer").isEqualTo(-1);
            }
        }
        System.out.printf("[attack] header-only POSTs announcing 1 MiB with wrong credentials: 2 answered 401 and closed in %d ms in all%n",
                (System.nanoTime() - start) / 1_000_000);
    }

    /** A customer's POST to a staff endpoint is refused from its headers; to one of its own the body is awaited (until the stall timeout). */
    @Test
    void aPostByARoleTheEndpointDoesNotAllowIsRefusedBeforeItsBody() throws IOException {
        List<String> staffOnly = List.of("POST /products", "POST /products/ABC-1/stock", "PUT /products/ABC-1", "POST /payments/reconciliation",
                "POST /outbox/dead-letters/1/retry", "POST /payments/refunds/refused/1/settle");
        long start = System.nanoTime();
        for (String path : staffOnly) {
            try (Socket socket = new Socket(app.getHost(), app.getPort())) {
                socket.setSoTimeout(5_000);
                String answer = send(socket, path + " HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("alice:alice")
                        + "\r\nContent-Type: application/json\r\nContent-Length: " + MIB + "\r\n\r\n");
                assertThat(answer).as(path).startsWith("HTTP/1.1 403").contains("\"code\":\"forbidden\"");
                assertThat(socket.getInputStream().read()).as(path + ": the connection closes").isEqualTo(-1);
            }
        }
        System.out.printf("[attack] header-only POSTs and PUTs announcing 1 MiB by a customer to staff endpoints: %d answered 403 and closed in %d ms in all%n",
                staffOnly.size(), (System.nanoTime() - start) / 1_000_000);
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(15_000);
            String answer = send(socket, "POST /orders/token HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("alice:alice")
                    + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n");
            assertThat(answer).as("a customer's own endpoint waits for the body").startsWith("HTTP/1.1 408");
        }
    }

    /**
     * Most clients write the whole body before they read: an answer sent before the body was read must still reach
     * them, not be lost to a connection reset because the server closed with the body's bytes unread.
     */
    @Test
    void aClientThatWritesItsWholeBodyBeforeReadingGetsTheEarlyAnswer() throws IOException {
        Users.add("writer", "customer");
        String tooLarge = "POST /orders HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("writer:writer")
                + "\r\nContent-Type: application/json\r\nContent-Length: " + 3 * MIB + "\r\n\r\n";
        String wrongPassword = "POST /orders/token HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("writer:wrong")
                + "\r\nContent-Type: application/json\r\nContent-Length: " + MIB + "\r\n\r\n";
        String chunked = "POST /orders HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("writer:writer")
                + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        String staffOnly = "POST /products HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("writer:writer")
                + "\r\nContent-Type: application/json\r\nContent-Length: " + MIB + "\r\n\r\n";
        for (int round = 1; round <= 3; round++) {
            assertThat(writtenWhole(tooLarge, 3 * MIB)).as("round %d", round).startsWith("HTTP/1.1 413").contains("\"code\":\"payload-too-large\"");
            assertThat(writtenWhole(wrongPassword, MIB)).as("round %d", round).startsWith("HTTP/1.1 401").contains("\"code\":\"unauthorized\"");
            assertThat(writtenWhole(staffOnly, MIB)).as("round %d", round).startsWith("HTTP/1.1 403").contains("\"code\":\"forbidden\"");
            // Without a length the server learns the body is too large only by reading it; the answer still arrives, and the connection ends.
            assertThat(writtenWhole(chunked, inChunks(3 * MIB))).as("round %d", round).startsWith("HTTP/1.1 413")
                    .contains("\"code\":\"payload-too-large\"");
        }
    }

    @Test
    void theAddressesOfPostEndpointsAreMatchedAsJaxRsMatchesThem() {
        assertThat(EndpointRoles.address("/orders/{id}/pay").matcher("/orders/3f2c/pay").matches()).isTrue();
        assertThat(EndpointRoles.address("/orders/{id}/pay").matcher("/orders/3f2c/x/pay").matches()).isFalse();
        assertThat(EndpointRoles.address("/products/{sku}/stock").matcher("/products/ABC-1/stock").matches()).isTrue();
        assertThat(EndpointRoles.address("/payments/reconciliation/").matcher("/payments/reconciliation").matches()).isTrue();
        assertThat(EndpointRoles.address("/items/{n: [0-9]{1,3}}").matcher("/items/123").matches()).isTrue();
        assertThat(EndpointRoles.address("/items/{n: [0-9]{1,3}}").matcher("/items/1234").matches()).isFalse();
        assertThat(EndpointRoles.address("/a.b/{x}").matcher("/aXb/1").matches()).as("literal dots").isFalse();
    }

    @Test
    void aFormWithASessionCookieThatOpensNoSessionGetsTheSignInPageBeforeItsBody() throws IOException {
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(5_000);
            String answer = send(socket, "POST /checkout HTTP/1.1\r\nHost: " + app.getHost() + "\r\nCookie: quarkus-credential=forged"
                    + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + MIB + "\r\n\r\n");
            assertThat(answer).startsWith("HTTP/1.1 302").containsIgnoringCase("Location: /login");
        }
    }

    @Test
    void aBodyThatStopsArrivingIsAnswered408AndItsConnectionCloses() throws IOException {
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(15_000);
            long start = System.nanoTime();
            String answer = send(socket, "POST /orders/token HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("alice:alice")
                    + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"part\":");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(answer).startsWith("HTTP/1.1 408").contains("\"code\":\"request-timeout\"");
            assertThat(millis).as("answered after the stall timeout (2 s in tests), within twice it").isBetween(STALL_MILLIS, 2 * STALL_MILLIS + 1_000);
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
    }

    /** A body that arrives slowly but steadily, a byte per half of the stall timeout, is read to its end. */
    @Test
    void aSlowButSteadyBodyIsServed() throws IOException, InterruptedException {
        byte[] body = "{}    ".getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /orders/token HTTP/1.1\r\nHost: " + app.getHost() + "\r\nAuthorization: " + basic("alice:alice")
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            for (byte next : body) {
                out.write(next);
                out.flush();
                // The pace is the test's subject: a byte per half stall, six bytes over 1.5 stall timeouts.
                Thread.sleep(STALL_MILLIS / 2);
            }
            assertThat(answer(socket.getInputStream())).startsWith("HTTP/1.1 201").contains("\"token\"");
        }
    }

    /** Every endpoint that takes a POST from anyone is on the public list, and nothing else is. */
    @Test
    void thePublicAddressesAreThoseWhoseEndpointsPermitAll() throws IOException, ClassNotFoundException {
        List<String> permitted = new ArrayList<>();
        Path classes = Path.of("target/classes");
        try (Stream<Path> files = Files.walk(classes.resolve("io/orderflow"))) {
            for (Path file : files.filter(name -> name.toString().endsWith(".class") && !name.toString().contains("$")).toList()) {
                String name = classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, getClass().getClassLoader());
                jakarta.ws.rs.Path path = type.getAnnotation(jakarta.ws.rs.Path.class);
                for (Method method : path == null ? new Method[0] : type.getDeclaredMethods()) {
                    if (method.isAnnotationPresent(POST.class) && (type.isAnnotationPresent(PermitAll.class) || method.isAnnotationPresent(PermitAll.class))) {
                        permitted.add(path.value().replaceAll("\\{[^}]+}$", ""));
                    }
                }
            }
        }
        assertThat(permitted).isNotEmpty().allSatisfy(address -> assertThat(CredentialsBeforeBody.isPublic(address.endsWith("/") ? address + "x" : address))
                .as(address).isTrue());
        assertThat(CredentialsBeforeBody.PUBLIC).hasSize(permitted.size() + 1).contains("/j_security_check");
    }

    /** The request's headers alone, then a wait for the answer while no byte of the announced body is sent. */
    private String headersOnly(String path, String type) throws IOException {
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: " + app.getHost() + "\r\nContent-Type: " + type
                    + "\r\nContent-Length: " + MIB + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return answer(socket.getInputStream());
        }
    }

    /** The request's headers and then all of its body, written before a byte of the answer is read; the answer, read to the connection's end. */
    private String writtenWhole(String head, int bodyLength) throws IOException {
        return writtenWhole(head, " ".repeat(bodyLength));
    }

    /** A body of {@code length} spaces in HTTP/1.1's chunked coding, 64 KiB a chunk. */
    private static String inChunks(int length) {
        int chunk = 64 * 1024;
        String chunkOfSpaces = Integer.toHexString(chunk) + "\r\n" + " ".repeat(chunk) + "\r\n";
        return chunkOfSpaces.repeat(length / chunk) + "0\r\n\r\n";
    }

    private String writtenWhole(String head, String body) throws IOException {
        try (Socket socket = new Socket(app.getHost(), app.getPort())) {
            socket.setSoTimeout(15_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String send(Socket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        return answer(socket.getInputStream());
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
    }

    /** An HTTP answer's head and its body of Content-Length bytes. */
    private static String answer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int next = in.read();
            if (next < 0) {
                break;
            }
            head.append((char) next);
        }
        Matcher length = CONTENT_LENGTH.matcher(head);
        byte[] body = length.find() ? in.readNBytes(Integer.parseInt(length.group(1))) : new byte[0];
        return head + new String(body, StandardCharsets.UTF_8);
    }
}
