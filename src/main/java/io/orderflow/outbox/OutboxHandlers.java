package io.orderflow.outbox;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

/** The handler of each kind of message, and the lane its messages travel in (see {@link Lane}). */
@ApplicationScoped
class OutboxHandlers {

    private final Map<String, OutboxHandler> handlers;
    private final Map<Lane, List<String>> kindsByLane;

    OutboxHandlers(Instance<OutboxHandler> handlers) {
        this.handlers = handlers.stream().collect(Collectors.toMap(OutboxHandler::kind, handler -> handler));
        this.kindsByLane = this.handlers.keySet().stream().collect(Collectors.groupingBy(this::laneOf, () -> new EnumMap<>(Lane.class),
                Collectors.toList()));
    }

    /** Every kind that has a handler. */
    Set<String> kinds() {
        return handlers.keySet();
    }

    /** The kinds that travel in this lane; none when no handler delivers in it. */
    List<String> kinds(Lane lane) {
        return kindsByLane.getOrDefault(lane, List.of());
    }

    Lane laneOf(String kind) {
        return handler(kind) instanceof BatchOutboxHandler ? Lane.BATCHED : Lane.SINGLE;
    }

    OutboxHandler handler(String kind) {
        OutboxHandler handler = handlers.get(kind);
        if (handler == null) {
            throw new IllegalStateException("No handler for outbox messages of kind " + kind);
        }
        return handler;
    }
}
