package io.orderflow.events;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.events")
public interface EventsConfig {

    /** How often the consumer reads the order event stream ({@code off} stops it). */
    @WithDefault("1S")
    String pollInterval();

    /** An event read by a consumer that died is taken over by another after this long unacknowledged. */
    @WithDefault("30S")
    Duration claimAfter();

    /**
     * About how many entries the stream keeps: each publish trims older ones (XADD MAXLEN ~), whether
     * consumed or not, so this must exceed any backlog the consumers may fall behind by.
     */
    @WithDefault("100000")
    long maxLength();

    /**
     * When the consumer group has to be created (first start, or Redis lost the stream), the order events
     * delivered this far back that no consumer recorded are published again.
     */
    @WithDefault("1H")
    Duration redeliverWithin();
}
