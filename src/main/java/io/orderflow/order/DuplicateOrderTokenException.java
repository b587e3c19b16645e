package io.orderflow.order;

/** The order token already produced an order, or was refused: PostgreSQL's unique keys refused another order. */
class DuplicateOrderTokenException extends RuntimeException {

    DuplicateOrderTokenException(Throwable cause) {
        super("An order for this token exists already, or the token was refused", cause, false, false);
    }
}
