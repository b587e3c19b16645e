package io.orderflow.lifecycle;

import static io.orderflow.lifecycle.OrderEvent.CANCEL;
import static io.orderflow.lifecycle.OrderEvent.CONFIRM;
import static io.orderflow.lifecycle.OrderEvent.DELIVER;
import static io.orderflow.lifecycle.OrderEvent.EXPIRE;
import static io.orderflow.lifecycle.OrderEvent.PAY;
import static io.orderflow.lifecycle.OrderEvent.SHIP;
import static io.orderflow.lifecycle.OrderStatus.CANCELLED;
import static io.orderflow.lifecycle.OrderStatus.CREATED;
import static io.orderflow.lifecycle.OrderStatus.DELIVERED;
import static io.orderflow.lifecycle.OrderStatus.PAID;
import static io.orderflow.lifecycle.OrderStatus.SHIPPED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.statemachine.config.StateMachineFactory;

import io.orderflow.support.FastTest;

/** The table the SQL guards and allowed actions use is exactly what the state machine definition says. */
@FastTest
class LifecycleTest {

    private static final Set<Actor> EVERYONE = EnumSet.allOf(Actor.class);
    private static final Set<Actor> ANY_CALLER = EnumSet.of(Actor.OWNER, Actor.STAFF);

    private final Lifecycle lifecycle = new Lifecycle();

    @Test
    void theSqlGuardsAreTheSourceStatesOfTheDefinition() {
        StateMachineFactory<OrderStatus, OrderEvent> definition = Lifecycle.definition();
        for (OrderEvent event : OrderEvent.values()) {
            Set<OrderStatus> fromFreshMachines = EnumSet.noneOf(OrderStatus.class);
            for (OrderStatus from : OrderStatus.values()) {
                if (Lifecycle.fire(definition, from, event, EVERYONE) != from) {
                    fromFreshMachines.add(from);
                }
            }
            assertThat(lifecycle.sourcesOf(event)).as("sources of %s", event).isEqualTo(fromFreshMachines);
        }
    }

    @Test
    void theDefinitionIsTheContractsLifecycle() {
        Map<OrderEvent, Set<OrderStatus>> contract = new EnumMap<>(OrderEvent.class);
        contract.put(PAY, EnumSet.of(CREATED));
        contract.put(SHIP, EnumSet.of(PAID));
        contract.put(DELIVER, EnumSet.of(SHIPPED));
        contract.put(CANCEL, EnumSet.of(CREATED, PAID));
        contract.put(EXPIRE, EnumSet.of(CREATED));
        contract.put(CONFIRM, EnumSet.of(SHIPPED));
        contract.forEach((event, sources) -> assertThat(lifecycle.sourcesOf(event)).as("sources of %s", event).isEqualTo(sources));

        assertThat(lifecycle.targetOf(PAY)).isEqualTo(PAID);
        assertThat(lifecycle.targetOf(SHIP)).isEqualTo(SHIPPED);
        assertThat(lifecycle.targetOf(DELIVER)).isEqualTo(DELIVERED);
        assertThat(lifecycle.targetOf(CANCEL)).isEqualTo(CANCELLED);
        assertThat(lifecycle.targetOf(EXPIRE)).isEqualTo(CANCELLED);
        assertThat(lifecycle.targetOf(CONFIRM)).isEqualTo(DELIVERED);
    }

    @Test
    void theGuardsSayWhoMayFireEachEvent() {
        Set<Actor> owner = EnumSet.of(Actor.OWNER);
        Set<Actor> staff = EnumSet.of(Actor.STAFF);
        assertThat(lifecycle.permits(owner, PAY)).isTrue();
        assertThat(lifecycle.permits(owner, CANCEL)).isTrue();
        assertThat(lifecycle.permits(owner, SHIP)).isFalse();
        assertThat(lifecycle.permits(owner, DELIVER)).isFalse();
        assertThat(lifecycle.permits(staff, PAY)).isFalse();
        assertThat(lifecycle.permits(staff, SHIP)).isTrue();
        assertThat(lifecycle.permits(staff, DELIVER)).isTrue();
        assertThat(lifecycle.permits(staff, CANCEL)).isTrue();
        assertThat(lifecycle.permits(EnumSet.noneOf(Actor.class), CANCEL)).isFalse();

        assertThat(lifecycle.allowedActions(CREATED, owner)).containsExactly(PAY, CANCEL);
        assertThat(lifecycle.allowedActions(CREATED, staff)).containsExactly(CANCEL);
        assertThat(lifecycle.allowedActions(PAID, staff)).containsExactly(SHIP, CANCEL);
        assertThat(lifecycle.allowedActions(PAID, ANY_CALLER)).containsExactly(SHIP, CANCEL);
        assertThat(lifecycle.allowedActions(SHIPPED, owner)).isEmpty();
        assertThat(lifecycle.allowedActions(SHIPPED, ANY_CALLER)).containsExactly(DELIVER);
        assertThat(lifecycle.allowedActions(DELIVERED, ANY_CALLER)).isEmpty();
        assertThat(lifecycle.allowedActions(CANCELLED, ANY_CALLER)).isEmpty();
    }

    @Test
    void onlyTheSystemFiresDeadlinesAndNoCallerIsOfferedThem() {
        Set<Actor> system = EnumSet.of(Actor.SYSTEM);
        for (Set<Actor> caller : Set.of(EnumSet.of(Actor.OWNER), EnumSet.of(Actor.STAFF), ANY_CALLER)) {
            assertThat(lifecycle.permits(caller, EXPIRE)).as("%s may expire", caller).isFalse();
            assertThat(lifecycle.permits(caller, CONFIRM)).as("%s may confirm", caller).isFalse();
            for (OrderStatus state : OrderStatus.values()) {
                assertThat(lifecycle.allowedActions(state, caller)).doesNotContain(EXPIRE, CONFIRM);
            }
        }
        assertThat(lifecycle.permits(system, EXPIRE)).isTrue();
        assertThat(lifecycle.permits(system, CONFIRM)).isTrue();
        assertThat(lifecycle.permits(system, CANCEL)).isFalse();
        assertThat(lifecycle.allowedActions(CREATED, system)).containsExactly(EXPIRE);
        assertThat(lifecycle.allowedActions(SHIPPED, system)).containsExactly(CONFIRM);
    }

    @Test
    void aNonexistentTransitionLeavesTheStateAlone() {
        assertThat(lifecycle.next(DELIVERED, CANCEL)).isEmpty();
        assertThat(lifecycle.next(CREATED, SHIP)).isEmpty();
        assertThat(lifecycle.next(PAID, CANCEL)).contains(CANCELLED);
    }
}
