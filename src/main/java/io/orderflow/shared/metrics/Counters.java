package io.orderflow.shared.metrics;

import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The counters of one name, one per value of a label, all registered when built: each series is exposed at 0
 * from the start, so that an alert on {@code increase(...)} sees the first event, and counting one finds its
 * counter without a registry lookup. Built by a bean that starts with the app, beside the values it counts.
 */
public final class Counters<V> {

    private final Map<V, Counter> byValue;

    private Counters(Map<V, Counter> byValue) {
        this.byValue = byValue;
    }

    /** A counter for every constant of {@code values}, its label the constant's {@link #label}, besides the {@code fixed} tags. */
    public static <E extends Enum<E>> Counters<E> of(MeterRegistry registry, String name, String description, Tags fixed, String label,
            Class<E> values) {
        Map<E, Counter> counters = new EnumMap<>(values);
        for (E value : values.getEnumConstants()) {
            counters.put(value, register(registry, name, description, fixed.and(label, label(value))));
        }
        return new Counters<>(counters);
    }

    /** A counter for every one of {@code values}, labelled as {@code labelOf} names it, besides the {@code fixed} tags. */
    public static <V> Counters<V> of(MeterRegistry registry, String name, String description, Tags fixed, String label,
            Collection<V> values, Function<V, String> labelOf) {
        Map<V, Counter> counters = new LinkedHashMap<>();
        for (V value : values) {
            counters.put(value, register(registry, name, description, fixed.and(label, labelOf.apply(value))));
        }
        return new Counters<>(counters);
    }

    /** A counter without labels, registered now. */
    public static Counter single(MeterRegistry registry, String name, String description) {
        return register(registry, name, description, Tags.empty());
    }

    private static Counter register(MeterRegistry registry, String name, String description, Tags tags) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }

    /** How a constant reads as a label value: its name in lower case, words joined by hyphens ({@code TAKEN_OVER} is taken-over). */
    public static String label(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public void increment(V value) {
        byValue.get(value).increment();
    }

    public void increment(V value, double amount) {
        byValue.get(value).increment(amount);
    }
}
