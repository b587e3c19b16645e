package io.orderflow.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

@FastTest
class RetentionSettingsTest {

    private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");

    @Test
    void anAgeIsADurationAsQuarkusWritesThem() {
        assertThat(MaxAge.of("7D").cutoff(NOW)).isEqualTo(Instant.parse("2025-02-22T12:00:00Z"));
        assertThat(MaxAge.of(" 90d ").cutoff(NOW)).isEqualTo(NOW.minus(Duration.ofDays(90)));
        assertThat(MaxAge.of("PT30M").cutoff(NOW)).isEqualTo(Instant.parse("2025-03-01T11:30:00Z"));
        assertThat(MaxAge.of("0S").cutoff(NOW)).isEqualTo(NOW);
        assertThat(MaxAge.of("12H").off()).isFalse();
    }

    @Test
    void offKeepsRowsForEver() {
        assertThat(MaxAge.of("off").off()).isTrue();
        assertThat(MaxAge.of("OFF")).isEqualTo(MaxAge.OFF);
        assertThatThrownBy(() -> MaxAge.OFF.cutoff(NOW)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNegativeOrUnreadableAgeIsRefused() {
        assertThatThrownBy(() -> MaxAge.of("-1H")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MaxAge.of("a week")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MaxAge.of("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBatchLimitIsWrittenInMillisecondsAndNeverZero() {
        assertThat(RetentionJob.limit(Duration.ofSeconds(2))).isEqualTo("2000ms");
        assertThat(RetentionJob.limit(Duration.ofMillis(250))).isEqualTo("250ms");
        // 0 would mean no limit at all.
        assertThat(RetentionJob.limit(Duration.ZERO)).isEqualTo("1ms");
    }

    @Test
    void everyTableHasItsOwnStatementAndOnlyTheSandboxesMayBeAbsent() {
        for (PurgedTable table : PurgedTable.values()) {
            assertThat(table.purgeBatch()).as(table.table()).startsWith("DELETE FROM " + table.table() + " WHERE ")
                    .contains("FROM " + table.table() + " WHERE ").contains("LIMIT ? FOR UPDATE SKIP LOCKED");
            assertThat(table.mayBeAbsent()).as(table.table()).isEqualTo(table.table().startsWith("sandbox_"));
        }
    }
}
