package io.orderflow.shared.money;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.orderflow.shared.problem.FieldError;

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

    /** The complaint about {@code field} when its currency is not accepted here. */
    default Optional<FieldError> refusal(String field, String currency) {
        return currencies().contains(currency) ? Optional.empty()
                : Optional.of(new FieldError(field, "must be one of " + String.join(", ", new TreeSet<>(currencies()))));
    }
}
