package io.orderflow.web;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** What the staff console's order list counts as needing attention. */
@ConfigMapping(prefix = "orders.console")
public interface ConsoleOrdersConfig {

    /** A paid order not shipped this long after its payment is listed under "paid, not shipped". */
    @WithDefault("24H")
    Duration paidNotShippedAfter();
}
