package io.orderflow.lifecycle;

/** In what capacity a caller acts on an order; a staff member acting on their own order is both. */
public enum Actor {
    /** The customer who created the order. */
    OWNER,
    /** A member of staff. */
    STAFF,
    /** The service itself, firing an order's deadline; never a caller of the API. */
    SYSTEM
}
