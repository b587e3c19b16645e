package io.orderflow.lifecycle;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.support.DefaultStateMachineContext;

import reactor.core.publisher.Mono;

/**
 * The order lifecycle, defined once with Spring Statemachine:
 * created -pay-> paid -ship-> shipped -deliver-> delivered, and cancel from created or paid.
 * <p>
 * This is the only class that knows the library (no longer maintained upstream). At start it runs
 * every (state, event) pair through a machine once and keeps the resulting transition table, from
 * which the SQL guards and the allowed actions are taken; requests never run a machine.
 */
@ApplicationScoped
public class Lifecycle {

    private final Map<OrderStatus, Map<OrderEvent, OrderStatus>> transitions;

    public Lifecycle() {
        this.transitions = explore(definition());
    }

    /** The state an event leads to from a state, or empty where the lifecycle does not allow it. */
    public Optional<OrderStatus> next(OrderStatus from, OrderEvent event) {
        return Optional.ofNullable(transitions.get(from).get(event));
    }

    /** The events the lifecycle allows from a state, in declaration order. */
    public Set<OrderEvent> eventsFrom(OrderStatus from) {
        return Collections.unmodifiableSet(transitions.get(from).keySet());
    }

    /** The states an event may start from: the guard of its conditional UPDATE. */
    public Set<OrderStatus> sourcesOf(OrderEvent event) {
        EnumSet<OrderStatus> sources = EnumSet.noneOf(OrderStatus.class);
        transitions.forEach((from, events) -> {
            if (events.containsKey(event)) {
                sources.add(from);
            }
        });
        return Collections.unmodifiableSet(sources);
    }

    private static StateMachineFactory<OrderStatus, OrderEvent> definition() {
        try {
            StateMachineBuilder.Builder<OrderStatus, OrderEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration().withConfiguration().autoStartup(false);
            builder.configureStates().withStates()
                    .initial(OrderStatus.CREATED)
                    .states(EnumSet.allOf(OrderStatus.class))
                    .end(OrderStatus.DELIVERED)
                    .end(OrderStatus.CANCELLED);
            builder.configureTransitions()
                    .withExternal().source(OrderStatus.CREATED).target(OrderStatus.PAID).event(OrderEvent.PAY).and()
                    .withExternal().source(OrderStatus.PAID).target(OrderStatus.SHIPPED).event(OrderEvent.SHIP).and()
                    .withExternal().source(OrderStatus.SHIPPED).target(OrderStatus.DELIVERED).event(OrderEvent.DELIVER).and()
                    .withExternal().source(OrderStatus.CREATED).target(OrderStatus.CANCELLED).event(OrderEvent.CANCEL).and()
                    .withExternal().source(OrderStatus.PAID).target(OrderStatus.CANCELLED).event(OrderEvent.CANCEL);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("The order lifecycle definition is invalid", e);
        }
    }

    private static Map<OrderStatus, Map<OrderEvent, OrderStatus>> explore(StateMachineFactory<OrderStatus, OrderEvent> factory) {
        Map<OrderStatus, Map<OrderEvent, OrderStatus>> table = new EnumMap<>(OrderStatus.class);
        for (OrderStatus from : OrderStatus.values()) {
            Map<OrderEvent, OrderStatus> events = new EnumMap<>(OrderEvent.class);
            for (OrderEvent event : OrderEvent.values()) {
                OrderStatus to = fire(factory, from, event);
                // A refused event still reports ACCEPTED: only a changed state counts.
                if (to != from) {
                    events.put(event, to);
                }
            }
            table.put(from, Collections.unmodifiableMap(events));
        }
        return Collections.unmodifiableMap(table);
    }

    private static OrderStatus fire(StateMachineFactory<OrderStatus, OrderEvent> factory, OrderStatus from, OrderEvent event) {
        StateMachine<OrderStatus, OrderEvent> machine = factory.getStateMachine();
        machine.getStateMachineAccessor().doWithAllRegions(region -> region
                .resetStateMachineReactively(new DefaultStateMachineContext<>(from, null, null, null)).block());
        machine.startReactively().block();
        try {
            machine.sendEvent(Mono.just(MessageBuilder.withPayload(event).build())).blockLast();
            return machine.getState().getId();
        } finally {
            machine.stopReactively().block();
        }
    }
}
