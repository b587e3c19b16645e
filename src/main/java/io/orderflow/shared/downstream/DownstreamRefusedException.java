package io.orderflow.shared.downstream;

/** A provider refused the call with an answer that says it did nothing (see {@link DownstreamErrors}): repeating it would be refused again. */
public class DownstreamRefusedException extends RuntimeException {

    private final int status;

    public DownstreamRefusedException(int status) {
        super("The provider refused the call with " + status, null, false, false);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
