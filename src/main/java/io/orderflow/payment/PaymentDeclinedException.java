package io.orderflow.payment;

/** The provider declined the charge (402): a decision, not a failure to retry. */
public class PaymentDeclinedException extends RuntimeException {

    public PaymentDeclinedException() {
        super("The provider declined the charge", null, false, false);
    }
}
