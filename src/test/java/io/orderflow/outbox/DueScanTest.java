package io.orderflow.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** Where a relay's search for due messages starts: past what it took, back for what commits late, from the beginning now and then. */
@FastTest
class DueScanTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final DueScan scan = new DueScan();

    @Test
    void theFirstSearchStartsAtTheBeginning() {
        assertThat(scan.start(START)).isEqualTo(Instant.EPOCH);
    }

    @Test
    void aSearchThatTookEverythingDueLetsTheNextStartShortlyBeforeIt() {
        scan.start(START);
        scan.searched(START, START);

        assertThat(scan.start(START.plusSeconds(1))).isEqualTo(START.minus(DueScan.LATE_COMMIT_MARGIN));
    }

    @Test
    void aFullBatchLetsTheNextSearchStartAtItsLastMessage() {
        Instant lastDue = START.minusSeconds(600);
        scan.start(START);
        scan.searched(lastDue, START);

        assertThat(scan.start(START.plusSeconds(1))).isEqualTo(lastDue);
    }

    @Test
    void aCommitBehindTheStartMovesItBack() {
        scan.start(START);
        scan.searched(START, START);
        Instant lateCommit = START.minusSeconds(30);

        scan.include(lateCommit);
        scan.include(START);

        assertThat(scan.start(START.plusSeconds(1))).isEqualTo(lateCommit);
    }

    @Test
    void aSearchDoesNotMoveTheStartPastACommitThatArrivedMeanwhile() {
        scan.start(START);
        Instant lateCommit = START.minusSeconds(30);
        scan.include(lateCommit);

        scan.searched(START, START);

        assertThat(scan.start(START.plusSeconds(1))).isEqualTo(lateCommit);
    }

    @Test
    void everySearchStartsFromTheBeginningOnceInAWhile() {
        scan.start(START);
        scan.searched(START, START);
        Instant later = START.plus(DueScan.FULL_SCAN_INTERVAL);

        assertThat(scan.start(later.minusSeconds(1))).isNotEqualTo(Instant.EPOCH);
        assertThat(scan.start(later)).isEqualTo(Instant.EPOCH);
        assertThat(scan.current()).isEqualTo(Instant.EPOCH);
    }
}
