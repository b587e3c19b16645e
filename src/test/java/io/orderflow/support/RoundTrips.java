package io.orderflow.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy in front of PostgreSQL or Redis that counts the round trips its clients make, as {@code ops/bench/trips.py}
 * does: what a client sends before the server answers is one trip, so statements or commands pipelined together count once.
 * Each trip is kept with what it carried (the SQL of PostgreSQL's Parse, Bind and Query messages, Redis's command names),
 * so that a budget that is exceeded says by what.
 */
public final class RoundTrips implements AutoCloseable {

    /** The protocol spoken through the proxy, which says how to name what a trip carries. */
    public enum Protocol {
        POSTGRES, REDIS
    }

    private final Protocol protocol;
    private final int targetPort;
    private final ServerSocket listener;
    private final List<String> trips = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    private RoundTrips(Protocol protocol, int targetPort) throws IOException {
        this.protocol = protocol;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "round-trips-" + protocol.name().toLowerCase());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy on a free loopback port to the server on {@code targetPort} of this machine. */
    public static RoundTrips to(Protocol protocol, int targetPort) {
        try {
            return new RoundTrips(protocol, targetPort);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** The trips made while {@code work} ran, each named by what it carried. */
    public List<String> during(Runnable work) {
        int before = count();
        work.run();
        synchronized (trips) {
            return List.copyOf(trips.subList(before, trips.size()));
        }
    }

    private int count() {
        synchronized (trips) {
            return trips.size();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException closed) {
                return;
            }
            try {
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                synchronized (sockets) {
                    sockets.add(client);
                    sockets.add(server);
                }
                Connection connection = new Connection();
                pump(client.getInputStream(), server.getOutputStream(), connection::sent);
                pump(server.getInputStream(), client.getOutputStream(), (bytes, length) -> connection.answered.set(true));
            } catch (IOException unreachable) {
                // This client is turned away, as the server would have; the next one is served.
                System.err.println("round-trips: port " + targetPort + " did not answer: " + unreachable);
                closeQuietly(client);
            }
        }
    }

    private interface Bytes {
        void read(byte[] buffer, int length);
    }

    private static void pump(InputStream from, OutputStream to, Bytes seen) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[65536];
            try (from; to) {
                for (int read; (read = from.read(buffer)) > 0;) {
                    seen.read(buffer, read);
                    to.write(buffer, 0, read);
                    to.flush();
                }
            } catch (IOException closed) {
                // either side went away: the other is closed with it
            }
        }, "round-trips-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** One client connection: whether its next bytes start a trip, and the messages of the trip in progress. */
    private final class Connection {

        final AtomicBoolean answered = new AtomicBoolean(true);
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private final Map<String, String> statements = new HashMap<>();
        private boolean started;
        private int trip = -1;

        void sent(byte[] buffer, int length) {
            if (answered.getAndSet(false)) {
                synchronized (trips) {
                    trips.add("");
                    trip = trips.size() - 1;
                }
            }
            String carried;
            try {
                pending.write(buffer, 0, length);
                carried = protocol == Protocol.POSTGRES ? postgresMessages() : redisCommands(buffer, length);
            } catch (RuntimeException unreadable) {
                // Naming is for the reader only: the bytes are forwarded whatever they hold.
                pending.reset();
                carried = "unreadable: " + unreadable;
            }
            if (!carried.isEmpty()) {
                synchronized (trips) {
                    String sofar = trips.get(trip);
                    trips.set(trip, sofar.isEmpty() ? carried : sofar + " | " + carried);
                }
            }
        }

        /** The complete messages received so far: Parse, Bind and Query named by their SQL; the startup by "startup". */
        private String postgresMessages() {
            ByteBuffer bytes = ByteBuffer.wrap(pending.toByteArray());
            List<String> named = new ArrayList<>();
            boolean synced = false;
            while (true) {
                if (!started) {
                    if (bytes.remaining() < 8 || bytes.remaining() < bytes.getInt(bytes.position())) {
                        break;
                    }
                    int length = bytes.getInt();
                    int code = bytes.getInt();
                    bytes.position(bytes.position() + length - 8);
                    // An SSLRequest (80877103) is answered with one byte and followed by the real startup message.
                    started = code != 80877103;
                    named.add(started ? "startup" : "ssl request");
                    continue;
                }
                if (bytes.remaining() < 5 || bytes.remaining() < 1 + bytes.getInt(bytes.position() + 1)) {
                    break;
                }
                byte type = bytes.get();
                int length = bytes.getInt();
                byte[] body = new byte[length - 4];
                bytes.get(body);
                switch (type) {
                    case 'P' -> {
                        String name = cString(body, 0);
                        String sql = cString(body, name.length() + 1);
                        if (!name.isEmpty()) {
                            statements.put(name, sql);
                        }
                        named.add(oneLine(sql));
                    }
                    case 'B' -> {
                        String portal = cString(body, 0);
                        String statement = cString(body, portal.length() + 1);
                        if (!statement.isEmpty() && statements.containsKey(statement)) {
                            named.add(oneLine(statements.get(statement)));
                        }
                    }
                    case 'Q' -> named.add(oneLine(cString(body, 0)));
                    case 'X' -> named.add("terminate");
                    // A Sync alone is a flush of the driver's own, a trip that carries no statement.
                    case 'S' -> synced = true;
                    default -> {
                        // Describe, Execute, Flush: part of the statements named already
                    }
                }
            }
            if (named.isEmpty() && synced) {
                named.add("sync");
            }
            byte[] rest = new byte[bytes.remaining()];
            bytes.get(rest);
            pending.reset();
            pending.writeBytes(rest);
            return String.join(" ; ", named.stream().distinct().toList());
        }

        /** The command names of the RESP arrays in these bytes (the first bulk string of each). */
        private String redisCommands(byte[] buffer, int length) {
            pending.reset();
            List<String> commands = new ArrayList<>();
            String text = new String(buffer, 0, length, StandardCharsets.ISO_8859_1);
            for (int at = text.indexOf('*'); at >= 0 && at < text.length(); at = text.indexOf("\r\n*", at + 1)) {
                int start = text.indexOf('$', at);
                int line = start < 0 ? -1 : text.indexOf("\r\n", start);
                if (line < 0) {
                    break;
                }
                int size;
                try {
                    size = Integer.parseInt(text.substring(start + 1, line));
                } catch (NumberFormatException insideAnArgument) {
                    break;
                }
                if (size >= 0 && line + 2 + size <= text.length()) {
                    commands.add(text.substring(line + 2, line + 2 + size).toUpperCase());
                }
                if (at + 1 >= text.length()) {
                    break;
                }
            }
            return String.join(" ", commands);
        }
    }

    private static String cString(byte[] body, int from) {
        int end = from;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        return new String(body, from, end - from, StandardCharsets.UTF_8);
    }

    private static String oneLine(String sql) {
        String line = sql.replaceAll("\\s+", " ").trim();
        return line.length() > 80 ? line.substring(0, 80) + "…" : line;
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (sockets) {
            sockets.forEach(RoundTrips::closeQuietly);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
