package io.orderflow.shared.security;

import io.quarkus.security.identity.SecurityIdentity;

/** The authenticated principal a request acts for. */
public record Caller(String name, boolean staff) {

    public static final String STAFF = "staff";
    /** Staff who also manage the users (/console/users); every admin is staff too ({@link AdminsAreStaff}). */
    public static final String ADMIN = "admin";
    /** The monitoring system's role: it may read /q/metrics and nothing else (application.properties). */
    public static final String METRICS = "metrics";

    public static Caller of(SecurityIdentity identity) {
        return new Caller(identity.getPrincipal().getName(), identity.hasRole(STAFF));
    }

    /** Customers see only their own orders; staff see every order. */
    public boolean maySee(String owner) {
        return staff || name.equals(owner);
    }
}
