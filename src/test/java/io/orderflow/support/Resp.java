package io.orderflow.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One Redis command on a connection of its own, outside the application: for servers a test starts,
 * stops, pauses and promotes, where the app's client must not be the one giving orders.
 */
public final class Resp {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Resp() {
    }

    /** The answer: a String for simple and bulk strings, a Long for integers, a List for arrays, null for nil; an error answer fails. */
    public static Object command(int port, String... parts) {
        StringBuilder request = new StringBuilder("*").append(parts.length).append("\r\n");
        for (String part : parts) {
            request.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part).append("\r\n");
        }
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            return read(new BufferedInputStream(socket.getInputStream()), String.join(" ", parts));
        } catch (IOException e) {
            throw new UncheckedIOException(String.join(" ", parts), e);
        }
    }

    /** A field of INFO's answer, e.g. info(port, "replication", "role"); null when absent. */
    public static String info(int port, String section, String field) {
        return ((String) command(port, "INFO", section)).lines().filter(line -> line.startsWith(field + ":"))
                .map(line -> line.substring(field.length() + 1).trim()).findFirst().orElse(null);
    }

    private static Object read(InputStream in, String command) throws IOException {
        String line = line(in);
        char type = line.charAt(0);
        String rest = line.substring(1);
        switch (type) {
            case '+':
                return rest;
            case ':':
                return Long.parseLong(rest);
            case '-':
                throw new IllegalStateException(command + ": " + rest);
            case '$': {
                int length = Integer.parseInt(rest);
                if (length < 0) {
                    return null;
                }
                String value = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                line(in);
                return value;
            }
            case '*': {
                int count = Integer.parseInt(rest);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    items.add(read(in, command));
                }
                return items;
            }
            default:
                throw new IllegalStateException(command + ": unexpected answer " + line);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("Connection closed mid-answer");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
