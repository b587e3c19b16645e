package io.orderflow.proof.faults;

import java.nio.file.Path;

/**
 * One deadline scenario's line of figures: the orders whose payment deadline fell due, who fired
 * their expiries, how many expired exactly once, how late the latest fired after its deadline, the
 * product's stock afterwards (on hand/reserved), the order events queued, and the requests that got
 * no answer or a 5xx.
 */
record DeadlineFigures(String scenario, int orders, String firedBy, long expiredOnce, long latestMillis, String stock, long cancelledEvents,
        long clientErrors) {

    String line() {
        return String.format("%-22s orders %5d  expired once %5d  latest %d ms after its deadline  fired by %s"
                + "  (stock on hand/reserved %s, cancelled events %d, no answer or 5xx %d)",
                scenario, orders, expiredOnce, latestMillis, firedBy, stock, cancelledEvents, clientErrors);
    }

    void publish(Path results) {
        Figures.publish(line(), results);
    }
}
