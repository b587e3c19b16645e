package io.orderflow.proof.faults;

import java.nio.file.Path;

/**
 * How an instance stopped by SIGTERM under load went: how many leases were held when the signal came (the work
 * it interrupted), how soon its readiness answered DOWN while it still served, how soon it exited, how many leases
 * (outbox messages, payment claims) were held when it exited and how soon every one of them was released, and
 * whether its consumer left the order-event group.
 */
record StopFigures(String scenario, int leasesAtSignal, long notReadyMillis, long exitedMillis, int leasesAtExit, long leasesGoneMillis,
        int consumersLeft) {

    String line() {
        return String.format("%-22s leases held at SIGTERM %d; not ready %d ms after it, still live; exited after %d ms;"
                + " leases held at the exit %d, all gone %d ms later; consumers that left the event group %d",
                scenario, leasesAtSignal, notReadyMillis, exitedMillis, leasesAtExit, leasesGoneMillis, consumersLeft);
    }

    void publish(Path results) {
        Figures.publish(line(), results);
    }
}
