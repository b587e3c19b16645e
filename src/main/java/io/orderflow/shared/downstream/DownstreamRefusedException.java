package io.orderflow.shared.downstream;

/** A provider refused the call with a 4xx other than 409 and 429: repeating it would be refused again. */
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
