package io.orderflow.shared.money;

import java.util.Set;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The currencies amounts may be in: orders are placed in them and products priced in them. The prefix is
 * still {@code orders.checkout}, where the setting has always been read.
 */
@ConfigMapping(prefix = "orders.checkout")
public interface CurrencyConfig {

    /** The ISO 4217 currencies orders may be placed in and products priced in. */
    @WithDefault("CNY,USD,EUR,GBP,JPY")
    Set<String> currencies();
}
