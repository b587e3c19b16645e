package io.orderflow.order;

/** The order token already produced an order: PostgreSQL's UNIQUE constraint refused a second one. */
class DuplicateOrderTokenException extends RuntimeException {

    DuplicateOrderTokenException(Throwable cause) {
        super("An order for this token exists already", cause, false, false);
    }
}
