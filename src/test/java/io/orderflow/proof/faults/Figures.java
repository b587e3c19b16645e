package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One scenario's line of figures: the requests its clients sent (retries included), the faults
 * injected, the errors clients saw from each fault until the service was ready again, what went
 * wrong (all must be 0), the longest time from a fault's end to every instance being ready, and the
 * answers that came {@link Traffic#HELD_UP} or more after their request (what a stall does).
 */
record Figures(String scenario, long requests, int faults, long errorsDuringFaults, long recoveredMillis, Audit.Findings findings,
        long serverErrors, long heldUp) {

    String line() {
        return String.format("%-22s requests %6d  faults %d  errors during faults %5d  duplicates %d  lost %d  unconverged %d  recovered in %s"
                + "  (carts %d, broken off %d, orders %d, charges %d, refunds %d, charges not taken %d, events never consumed %d, 500s %d,"
                + " answers held up %d)",
                scenario, requests, faults, errorsDuringFaults, findings.duplicates().size(), findings.lost().size(),
                findings.unconverged().size(), faults == 0 ? "-" : recoveredMillis + " ms",
                findings.carts(), findings.brokenOff().size(), findings.orders(), findings.charges(), findings.refunds(), findings.chargesNotTaken(),
                findings.unconsumedEvents(), serverErrors, heldUp);
    }

    /** Prints the line and appends it to the results file that ops/proof/run.sh turns into RESULTS.md. */
    void publish(Path results) {
        publish(line(), results);
    }

    /** Prints a scenario's line and appends it to the results file. */
    static void publish(String line, Path results) {
        System.out.println("[proof] " + line);
        try {
            Files.createDirectories(results.toAbsolutePath().getParent());
            Files.writeString(results, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
