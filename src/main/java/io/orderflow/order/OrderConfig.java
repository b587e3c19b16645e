package io.orderflow.order;

import java.util.Set;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "orders.checkout")
public interface OrderConfig {

    /** The ISO 4217 currencies orders may be placed in. */
    @WithDefault("CNY,USD,EUR,GBP,JPY")
    Set<String> currencies();
}
