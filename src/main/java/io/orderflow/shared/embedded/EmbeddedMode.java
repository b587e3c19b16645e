package io.orderflow.shared.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.util.Locale;

/**
 * When dev mode and tests start embedded PostgreSQL and Redis in place of the configured ones
 * ({@code orders.embedded}, {@code ORDERS_EMBEDDED}): {@code auto} when the configured server does
 * not answer, {@code always}, or {@code never}. This class touches no embedded library, so the
 * packaged app, which ships without them, may load it.
 */
public enum EmbeddedMode {
    AUTO, ALWAYS, NEVER;

    private static final int PROBE_TIMEOUT_MILLIS = 500;

    /** The mode a setting names; no setting is {@code auto}. */
    public static EmbeddedMode of(String setting) {
        if (setting == null || setting.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(setting.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("orders.embedded must be auto, always or never, not " + setting, e);
        }
    }

    /** Whether an embedded server takes the place of the one at this address, and why (null when it does not). */
    public String reasonToReplace(URI server, int defaultPort) {
        if (this == NEVER) {
            return null;
        }
        if (this == ALWAYS) {
            return "orders.embedded=always";
        }
        String host = server.getHost() == null ? "localhost" : server.getHost();
        int port = server.getPort() < 0 ? defaultPort : server.getPort();
        return answers(host, port) ? null : host + ":" + port + " did not answer";
    }

    private static boolean answers(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), PROBE_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
