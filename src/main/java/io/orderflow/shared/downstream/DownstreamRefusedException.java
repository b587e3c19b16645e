package io.orderflow.shared.downstream;

/** A provider refused the call with an answer that says it did nothing (see {@link DownstreamErrors}): repeating it would be refused again. */
public class DownstreamRefusedException extends RuntimeException {

    private final int status;
    private final String reason;

    /** With the provider's reason, short and on one line, as its answer gave it; null when it gave none. */
    public DownstreamRefusedException(int status, String reason) {
        super("The provider refused the call with " + status + (reason == null ? "" : ": " + reason), null, false, false);
        this.status = status;
        this.reason = reason;
    }

    public int status() {
        return status;
    }

    /** Why the provider refused, in its own words (e.g. {@code charge_already_refunded: Charge ch_x has already been refunded.}); null when it did not say. */
    public String reason() {
        return reason;
    }
}
