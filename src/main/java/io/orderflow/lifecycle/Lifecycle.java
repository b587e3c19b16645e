package io.orderflow.lifecycle;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.statemachine.StateContext;
import org.springframework.statemachine.StateMachine;
import org.springframework.statemachine.config.StateMachineBuilder;
import org.springframework.statemachine.config.StateMachineFactory;
import org.springframework.statemachine.guard.Guard;
import org.springframework.statemachine.support.DefaultStateMachineContext;

import reactor.core.publisher.Mono;

/**
 * The order lifecycle, defined once with Spring Statemachine: states, events, transitions and the
 * guards saying who may fire each event.
 * <pre>
 * created --pay--> paid --ship--> shipped --deliver--> delivered
 *    |               |
 *    +----cancel-----+--> cancelled
 * </pre>
 * and for the system only, when an order's deadline passes: expire (created -> cancelled) and
 * confirm (shipped -> delivered).
 * This is the only class that knows the library (no longer maintained upstream). At start it runs
 * every (state, event, actor) through a fresh machine once and keeps the outcome as a table, from
 * which the SQL guards, the permissions and the allowed actions are read; requests never run a
 * machine, so the machines' lack of thread safety never matters.
 */
@ApplicationScoped
public class Lifecycle {

    private static final String ACTORS = "actors";
    private static final List<Set<Actor>> CAPACITIES = List.of(
            EnumSet.of(Actor.OWNER), EnumSet.of(Actor.STAFF), EnumSet.of(Actor.OWNER, Actor.STAFF), EnumSet.of(Actor.SYSTEM));

    /** For each capacity, state and event: the resulting state, where the machine moved. */
    private final Map<Set<Actor>, Map<OrderStatus, Map<OrderEvent, OrderStatus>>> table;
    private final Map<OrderEvent, Set<OrderStatus>> sources = new EnumMap<>(OrderEvent.class);
    private final Map<OrderEvent, OrderStatus> targets = new EnumMap<>(OrderEvent.class);

    public Lifecycle() {
        StateMachineFactory<OrderStatus, OrderEvent> definition = definition();
        Map<Set<Actor>, Map<OrderStatus, Map<OrderEvent, OrderStatus>>> explored = new HashMap<>();
        for (Set<Actor> actors : CAPACITIES) {
            explored.put(actors, explore(definition, actors));
        }
        this.table = Collections.unmodifiableMap(explored);
        for (OrderEvent event : OrderEvent.values()) {
            EnumSet<OrderStatus> from = EnumSet.noneOf(OrderStatus.class);
            Set<OrderStatus> reached = EnumSet.noneOf(OrderStatus.class);
            for (OrderStatus state : OrderStatus.values()) {
                next(state, event).ifPresent(to -> {
                    from.add(state);
                    reached.add(to);
                });
            }
            sources.put(event, Collections.unmodifiableSet(from));
            if (reached.size() != 1) {
                throw new IllegalStateException(event + " must lead to exactly one state, not " + reached);
            }
            targets.put(event, reached.iterator().next());
        }
    }

    /** The state an event leads to from a state, whoever fires it; empty where no transition exists. */
    public Optional<OrderStatus> next(OrderStatus from, OrderEvent event) {
        return CAPACITIES.stream()
                .map(actors -> table.get(actors).get(from).get(event))
                .filter(Objects::nonNull)
                .findFirst();
    }

    /** The states an event may start from, whoever fires it: the guard of its conditional UPDATE. */
    public Set<OrderStatus> sourcesOf(OrderEvent event) {
        return sources.get(event);
    }

    /** The state an event leads to; this lifecycle has one target per event, checked at start. */
    public OrderStatus targetOf(OrderEvent event) {
        return targets.get(event);
    }

    /** Whether callers in this capacity may ever fire the event (else 403, whatever the state). */
    public boolean permits(Set<Actor> actors, OrderEvent event) {
        if (actors.isEmpty()) {
            return false;
        }
        return table.get(actors).values().stream().anyMatch(events -> events.containsKey(event));
    }

    /** The events callers in this capacity may fire from a state, in declaration order. */
    public List<OrderEvent> allowedActions(OrderStatus from, Set<Actor> actors) {
        if (actors.isEmpty()) {
            return List.of();
        }
        return List.copyOf(table.get(actors).get(from).keySet());
    }

    /** The definition itself; package-private so a test can compare the table with fresh machines. */
    static StateMachineFactory<OrderStatus, OrderEvent> definition() {
        Guard<OrderStatus, OrderEvent> owner = by(Actor.OWNER);
        Guard<OrderStatus, OrderEvent> staff = by(Actor.STAFF);
        Guard<OrderStatus, OrderEvent> ownerOrStaff = context -> owner.evaluate(context) || staff.evaluate(context);
        Guard<OrderStatus, OrderEvent> system = by(Actor.SYSTEM);
        try {
            StateMachineBuilder.Builder<OrderStatus, OrderEvent> builder = StateMachineBuilder.builder();
            builder.configureConfiguration().withConfiguration().autoStartup(false);
            builder.configureStates().withStates()
                    .initial(OrderStatus.CREATED)
                    .states(EnumSet.allOf(OrderStatus.class))
                    .end(OrderStatus.DELIVERED)
                    .end(OrderStatus.CANCELLED);
            builder.configureTransitions()
                    .withExternal().source(OrderStatus.CREATED).target(OrderStatus.PAID).event(OrderEvent.PAY).guard(owner).and()
                    .withExternal().source(OrderStatus.PAID).target(OrderStatus.SHIPPED).event(OrderEvent.SHIP).guard(staff).and()
                    .withExternal().source(OrderStatus.SHIPPED).target(OrderStatus.DELIVERED).event(OrderEvent.DELIVER).guard(staff).and()
                    .withExternal().source(OrderStatus.CREATED).target(OrderStatus.CANCELLED).event(OrderEvent.CANCEL).guard(ownerOrStaff).and()
                    .withExternal().source(OrderStatus.PAID).target(OrderStatus.CANCELLED).event(OrderEvent.CANCEL).guard(ownerOrStaff).and()
                    .withExternal().source(OrderStatus.CREATED).target(OrderStatus.CANCELLED).event(OrderEvent.EXPIRE).guard(system).and()
                    .withExternal().source(OrderStatus.SHIPPED).target(OrderStatus.DELIVERED).event(OrderEvent.CONFIRM).guard(system);
            return builder.createFactory();
        } catch (Exception e) {
            throw new IllegalStateException("The order lifecycle definition is invalid", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Guard<OrderStatus, OrderEvent> by(Actor actor) {
        return (StateContext<OrderStatus, OrderEvent> context) -> {
            Object actors = context.getMessageHeader(ACTORS);
            return actors instanceof Set<?> set && ((Set<Actor>) set).contains(actor);
        };
    }

    private static Map<OrderStatus, Map<OrderEvent, OrderStatus>> explore(StateMachineFactory<OrderStatus, OrderEvent> definition,
            Set<Actor> actors) {
        Map<OrderStatus, Map<OrderEvent, OrderStatus>> transitions = new EnumMap<>(OrderStatus.class);
        for (OrderStatus from : OrderStatus.values()) {
            Map<OrderEvent, OrderStatus> events = new EnumMap<>(OrderEvent.class);
            for (OrderEvent event : OrderEvent.values()) {
                OrderStatus to = fire(definition, from, event, actors);
                // A refused event still reports ACCEPTED: only a changed state counts.
                if (to != from) {
                    events.put(event, to);
                }
            }
            transitions.put(from, Collections.unmodifiableMap(events));
        }
        return Collections.unmodifiableMap(transitions);
    }

    static OrderStatus fire(StateMachineFactory<OrderStatus, OrderEvent> definition, OrderStatus from, OrderEvent event,
            Set<Actor> actors) {
        StateMachine<OrderStatus, OrderEvent> machine = definition.getStateMachine();
        machine.getStateMachineAccessor().doWithAllRegions(region -> region
                .resetStateMachineReactively(new DefaultStateMachineContext<>(from, null, null, null)).block());
        machine.startReactively().block();
        try {
            Message<OrderEvent> message = MessageBuilder.withPayload(event).setHeader(ACTORS, actors).build();
            machine.sendEvent(Mono.just(message)).blockLast();
            return machine.getState().getId();
        } finally {
            machine.stopReactively().block();
        }
    }
}
