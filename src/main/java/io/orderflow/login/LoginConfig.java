package io.orderflow.login;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Sign-in throttling: how many wrong passwords a user, or an address, may send in a window. */
@ConfigMapping(prefix = "orders.login")
public interface LoginConfig {

    /** Failed sign-ins for one user name within a window before its sign-ins are refused (env {@code ORDERS_LOGIN_MAX_FAILURES_PER_USER}). */
    @WithDefault("5")
    int maxFailuresPerUser();

    /**
     * Failed sign-ins from one client address within a window before its sign-ins are refused. Higher
     * than per user: many people may sit behind one address (an office, a carrier's NAT).
     */
    @WithDefault("50")
    int maxFailuresPerAddress();

    /** Starts at a user's (or address's) first failure; its counter is forgotten when it ends. */
    @WithDefault("15M")
    Duration window();
}
