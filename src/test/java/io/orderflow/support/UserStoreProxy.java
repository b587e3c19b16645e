package io.orderflow.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A TCP proxy between the app and this run's PostgreSQL, which a test may cut: every connection is
 * dropped and new ones are refused, as while PostgreSQL restarts or fails over, and then let through
 * again. The shared server is never touched. Started after {@link TestServers}, whose schema it
 * keeps.
 */
public class UserStoreProxy implements QuarkusTestResourceLifecycleManager {

    private static final Set<Socket> OPEN = ConcurrentHashMap.newKeySet();
    private static volatile ServerSocket listener;
    private static int port;
    private static InetSocketAddress target;

    @Override
    public Map<String, String> start() {
        URI postgres = URI.create(TestServers.POSTGRES_URL.substring("jdbc:".length()));
        target = new InetSocketAddress(postgres.getHost(), postgres.getPort() < 0 ? 5432 : postgres.getPort());
        port = listen(ReservedPorts.next());
        return Map.of("quarkus.datasource.jdbc.url",
                "jdbc:postgresql://127.0.0.1:" + port + postgres.getPath() + "?currentSchema=" + TestServers.schema());
    }

    @Override
    public void stop() {
        cut();
    }

    @Override
    public int order() {
        return 1;
    }

    /** Drops every connection and refuses new ones. */
    public static void cut() {
        try {
            if (listener != null) {
                listener.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        OPEN.forEach(UserStoreProxy::close);
    }

    /** Takes connections again, on the same port. */
    public static void restore() {
        listen(port);
    }

    private static int listen(int on) {
        try {
            ServerSocket socket = new ServerSocket(on, 50, InetAddress.getLoopbackAddress());
            listener = socket;
            Thread accepting = new Thread(() -> accept(socket), "user-store-proxy");
            accepting.setDaemon(true);
            accepting.start();
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                OPEN.add(client);
                try {
                    Socket server = new Socket(target.getAddress(), target.getPort());
                    OPEN.add(server);
                    pump(client, server);
                    pump(server, client);
                } catch (IOException e) {
                    close(client);
                }
            } catch (IOException e) {
                // Closed by cut().
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread copying = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // The other side went away.
            } finally {
                close(from);
                close(to);
            }
        }, "user-store-proxy-pump");
        copying.setDaemon(true);
        copying.start();
    }

    private static void close(Socket socket) {
        OPEN.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }
}
