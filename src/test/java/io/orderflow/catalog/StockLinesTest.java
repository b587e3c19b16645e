package io.orderflow.catalog;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** An order's lines as stock sees them: one quantity per sku, in sku order, the order its products' rows are locked in. */
@FastTest
class StockLinesTest {

    @Test
    void linesOfOneSkuAddUpAndSkusComeInOrder() {
        assertThat(Stock.merged(List.of(new StockLine("B-2", 1), new StockLine("A-1", 2), new StockLine("B-2", 3))))
                .containsExactly(entry("A-1", 2), entry("B-2", 4));
    }

    @Test
    void aLineWithoutAPositiveQuantityIsABug() {
        assertThatThrownBy(() -> Stock.merged(List.of(new StockLine("A-1", 0)))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stock.merged(List.of(new StockLine("A-1", -1)))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void quantitiesThatWouldOverflowAreRefusedRatherThanWrapped() {
        assertThatThrownBy(() -> Stock.merged(List.of(new StockLine("A-1", Integer.MAX_VALUE), new StockLine("A-1", 1))))
                .isInstanceOf(ArithmeticException.class);
    }
}
