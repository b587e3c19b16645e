package io.orderflow.proof.faults;

import java.nio.file.Path;

/**
 * How an instance stopped by SIGTERM under load went: how soon its readiness answered DOWN while it still
 * served, how soon it exited, how many leases (outbox messages, payment claims) were held when it exited and
 * how soon every one of them was released, and whether its consumer left the order-event group.
 */
record StopFigures(String scenario, long notReadyMillis, long exitedMillis, int leasesAtExit, long leasesGoneMillis, int consumersLeft) {

    String line() {
        return String.format("%-22s not ready %d ms after SIGTERM, still live; exited after %d ms; leases held at the exit %d, all gone %d ms later;"
                + " consumers that left the event group %d", scenario, notReadyMillis, exitedMillis, leasesAtExit, leasesGoneMillis, consumersLeft);
    }

    void publish(Path results) {
        Figures.publish(line(), results);
    }
}
