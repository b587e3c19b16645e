package io.orderflow.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client on a loopback address of its own (127.0.0.2, ...): what a server sees as the connection's
 * source, without a forwarding header unless the request sends one.
 */
public final class LoopbackClient {

    private static final Pattern STATUS = Pattern.compile("^HTTP/1\\.1 (\\d{3})");
    private static final Pattern RETRY_AFTER = Pattern.compile("(?im)^Retry-After:\\s*(\\d+)");

    private LoopbackClient() {
    }

    /** The status of an answer, and its Retry-After in seconds if it has one. */
    public record Answer(int status, Long retryAfter) {
    }

    /** GET of a path with Basic credentials and the given headers, from a socket bound to {@code local}. */
    public static Answer get(String local, String host, int port, String path, String user, String password, Map<String, String> headers)
            throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout(10_000);
            String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\nHost: ").append(host)
                    .append("\r\nAuthorization: Basic ").append(credentials).append("\r\nConnection: close\r\n");
            headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
            OutputStream out = socket.getOutputStream();
            out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            Matcher status = STATUS.matcher(answer);
            if (!status.find()) {
                throw new IOException("Not an HTTP answer: " + answer);
            }
            Matcher retryAfter = RETRY_AFTER.matcher(answer);
            return new Answer(Integer.parseInt(status.group(1)), retryAfter.find() ? Long.parseLong(retryAfter.group(1)) : null);
        }
    }
}
