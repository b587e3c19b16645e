package io.orderflow.shared.downstream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** Exponential backoff with equal jitter: between half and all of the doubled, capped delay. */
@FastTest
class BackoffTest {

    private static final int DRAWS = 2_000;

    @Test
    void eachWaitLiesBetweenHalfAndAllOfTheDoubledDelay() {
        for (int retry = 0; retry < 5; retry++) {
            long ceiling = 100L << retry;
            for (int i = 0; i < DRAWS; i++) {
                assertThat(Backoff.equalJitter(100, 10_000, retry)).isBetween(ceiling / 2, ceiling);
            }
        }
    }

    @Test
    void theDelayStopsGrowingAtItsCap() {
        for (int i = 0; i < DRAWS; i++) {
            assertThat(Backoff.equalJitter(100, 1_000, 10)).isBetween(500L, 1_000L);
        }
    }

    @Test
    void aLongRunOfRetriesNeitherOverflowsNorPassesTheCap() {
        for (int retry : new int[] { 31, 63, 64, 1_000, Integer.MAX_VALUE }) {
            assertThat(Backoff.equalJitter(1_000, 60_000, retry)).isBetween(30_000L, 60_000L);
        }
    }

    @Test
    void theWaitsOfClientsRetryingTogetherSpreadOut() {
        Set<Long> waits = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            waits.add(Backoff.equalJitter(1_000, 60_000, 3));
        }
        // 100 draws from 4,001 values: all alike would mean no jitter at all.
        assertThat(waits).hasSizeGreaterThan(50);
    }
}
