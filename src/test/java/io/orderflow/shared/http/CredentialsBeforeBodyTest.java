package io.orderflow.shared.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A POST without credentials is answered from its headers: a client that announces a 1 MiB body and sends
 * none of it gets its 401 at once, not after the server waited for the body; a form gets the sign-in page.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class CredentialsBeforeBodyTest {

    private static final int MIB = 1 << 20;
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)");

    @TestHTTPResource("/")
    URL app;

    @Test
    void aPostAnnouncingAMebibyteWithoutCredentialsIsRefusedBeforeItsBody() throws IOException {
        for (String path : List.of("/orders", "/orders/token", "/products", "/payments/reconciliation", "/orders/x/../../products")) {
            String answer = headersOnly(path, "application/json");
            assertThat(answer).as(path).startsWith("HTTP/1.1 401").containsIgnoringCase("WWW-Authenticate: Basic realm=\"orders\"")
                    .containsIgnoringCase("Content-Type: application/problem+json").contains("\"code\":\"unauthorized\"");
        }
        assertThat(headersOnly("/checkout", "application/x-www-form-urlencoded")).startsWith("HTTP/1.1 302").containsIgnoringCase("Location: /login");
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
