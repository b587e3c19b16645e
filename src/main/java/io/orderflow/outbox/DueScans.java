package io.orderflow.outbox;

import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

/** Each lane's {@link DueScan}: moved on by the lane's relays and its commits, read by the backlog to count from where they search. */
@ApplicationScoped
class DueScans {

    private final Map<Lane, DueScan> scans = new EnumMap<>(Map.of(Lane.BATCHED, new DueScan(), Lane.SINGLE, new DueScan()));

    DueScan of(Lane lane) {
        return scans.get(lane);
    }

    /** Where the earliest of the lanes' next searches starts. */
    Instant earliest() {
        return scans.values().stream().map(DueScan::current).min(Comparator.naturalOrder()).orElseThrow();
    }
}
