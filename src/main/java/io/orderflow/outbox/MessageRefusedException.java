package io.orderflow.outbox;

/**
 * Thrown by a handler when the receiver refused a message for good (a refund the provider will never
 * make): repeating it would be refused again, so the message leaves the line as REFUSED, with the
 * refusal as its last error, until staff settle it.
 */
public class MessageRefusedException extends RuntimeException {

    public MessageRefusedException(RuntimeException refusal) {
        super(refusal.getMessage(), refusal, false, false);
    }
}
