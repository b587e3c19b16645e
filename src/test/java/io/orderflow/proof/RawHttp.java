package io.orderflow.proof;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain socket, one connection per request. HTTP client libraries refuse to send
 * much of what this proof needs the server to see (header values with control characters or raw
 * UTF-8 bytes, unknown methods, bodies without a Content-Type, repeated headers), so requests are
 * written byte for byte as generated.
 */
final class RawHttp {

    private static final int TIMEOUT_MILLIS = 30_000;

    private RawHttp() {
    }

    /** A request as it goes on the wire; header values are written as UTF-8 bytes, whatever they hold. */
    static final class Request {

        final String method;
        final String target;
        final List<String[]> headers = new ArrayList<>();
        byte[] body;

        Request(String method, String target) {
            this.method = method;
            this.target = target;
        }

        Request header(String name, String value) {
            headers.add(new String[] { name, value });
            return this;
        }

        Request body(String contentType, byte[] bytes) {
            if (contentType != null) {
                header("Content-Type", contentType);
            }
            body = bytes;
            return this;
        }

        /** The request written as a reader can follow it: non-printable characters escaped, long values shortened. */
        String describe() {
            StringBuilder text = new StringBuilder(method).append(' ').append(printable(target, 300));
            headers.forEach(header -> text.append("\n").append(header[0]).append(": ").append(printable(header[1], 300)));
            if (body != null) {
                text.append("\n\n").append(printable(new String(body, StandardCharsets.UTF_8), 1500));
            }
            return text.toString();
        }

        private byte[] bytes() {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            write(wire, method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
            headers.forEach(header -> write(wire, header[0] + ": " + header[1] + "\r\n"));
            if (body != null) {
                write(wire, "Content-Length: " + body.length + "\r\n");
            }
            write(wire, "\r\n");
            if (body != null) {
                wire.writeBytes(body);
            }
            return wire.toByteArray();
        }

        private static void write(ByteArrayOutputStream wire, String text) {
            wire.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The answer: status, headers (names in lower case) and the body, de-chunked. */
    record Answer(int status, List<String[]> headers, byte[] body) {

        String header(String name) {
            return headers.stream().filter(header -> header[0].equals(name.toLowerCase(Locale.ROOT))).map(header -> header[1])
                    .findFirst().orElse(null);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String describe() {
            StringBuilder text = new StringBuilder("HTTP ").append(status);
            headers.forEach(header -> text.append("\n").append(header[0]).append(": ").append(header[1]));
            return text.append("\n\n").append(printable(text(), 1000)).toString();
        }
    }

    static Answer send(int port, Request request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request.bytes());
                out.flush();
            } catch (IOException closedEarly) {
                // The server may answer and close before it has read everything (a refused header); its answer is still there to read.
            }
            return parse(socket.getInputStream().readAllBytes());
        }
    }

    private static Answer parse(byte[] wire) throws IOException {
        int end = indexOf(wire, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
        if (end < 0) {
            throw new IOException("No complete HTTP answer in " + wire.length + " bytes: " + printable(new String(wire, StandardCharsets.ISO_8859_1), 500));
        }
        String[] lines = new String(wire, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        List<String[]> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.add(new String[] { lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim() });
        }
        byte[] rest = Arrays.copyOfRange(wire, end + 4, wire.length);
        boolean chunked = headers.stream().anyMatch(header -> header[0].equals("transfer-encoding") && header[1].equalsIgnoreCase("chunked"));
        return new Answer(status, headers, chunked ? dechunk(rest) : rest);
    }

    private static byte[] dechunk(byte[] chunked) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        InputStream in = new ByteArrayInputStream(chunked);
        while (true) {
            String sizeLine = readLine(in);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                return body.toByteArray();
            }
            body.writeBytes(in.readNBytes(size));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("A chunked body ended early");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static int indexOf(byte[] data, byte[] pattern, int from) {
        for (int i = from; i <= data.length - pattern.length; i++) {
            if (Arrays.equals(data, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        return -1;
    }

    /** Java-style escapes for what is not printable ASCII, cut after {@code max} characters. */
    static String printable(String text, int max) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < text.length() && i < max; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f || c == '\n') {
                shown.append(c);
            } else {
                shown.append(String.format("\\u%04x", (int) c));
            }
        }
        return text.length() > max ? shown + "...(" + text.length() + " characters)" : shown.toString();
    }
}
