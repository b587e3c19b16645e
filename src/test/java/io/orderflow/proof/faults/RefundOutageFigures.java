package io.orderflow.proof.faults;

import java.nio.file.Path;

/**
 * The refund outage's line of figures: the orders paid and then cancelled while the provider refused
 * refunds, the refund calls it refused, the refunds each order's ledger holds afterwards, the orders
 * with more than one, the most overdue refunds an instance counted, and how long after the outage the
 * last refund was made.
 */
record RefundOutageFigures(String scenario, int orders, long refused, long refunds, long duplicates, double mostOverdue, long madeWithinMillis) {

    String line() {
        return String.format("%-22s orders %5d  refund calls refused during the outage %5d  refunds made %5d  duplicates %d"
                + "  (most refunds overdue %.0f, all made %d ms after the outage)",
                scenario, orders, refused, refunds, duplicates, mostOverdue, madeWithinMillis);
    }

    void publish(Path results) {
        Figures.publish(line(), results);
    }
}
