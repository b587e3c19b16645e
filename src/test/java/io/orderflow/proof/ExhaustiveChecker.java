package io.orderflow.proof;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Visits every state a transition system can reach, breadth first, and checks a property in each.
 * Breadth first, so that a counterexample is one of the shortest.
 */
final class ExhaustiveChecker {

    /** One step of the system: what happened, and the state it led to. */
    record Transition<S>(String label, S next) {
    }

    /** How far the search went, and the steps to the first state found that breaks the property (empty when none). */
    record Result(int statesExplored, List<String> counterexample) {

        boolean holds() {
            return counterexample.isEmpty();
        }
    }

    private record Arrival<S>(S from, String label) {
    }

    private ExhaustiveChecker() {
    }

    static <S> Result explore(S initial, Function<S, List<Transition<S>>> successors, Function<S, Optional<String>> violation) {
        Map<S, Arrival<S>> reached = new HashMap<>();
        ArrayDeque<S> frontier = new ArrayDeque<>();
        reached.put(initial, new Arrival<>(null, "start"));
        frontier.add(initial);
        while (!frontier.isEmpty()) {
            S state = frontier.poll();
            Optional<String> broken = violation.apply(state);
            if (broken.isPresent()) {
                return new Result(reached.size(), trace(reached, state, broken.get()));
            }
            for (Transition<S> transition : successors.apply(state)) {
                if (reached.putIfAbsent(transition.next(), new Arrival<>(state, transition.label())) == null) {
                    frontier.add(transition.next());
                }
            }
        }
        return new Result(reached.size(), List.of());
    }

    private static <S> List<String> trace(Map<S, Arrival<S>> reached, S last, String broken) {
        List<String> steps = new ArrayList<>();
        steps.add("VIOLATED: " + broken);
        for (S state = last; state != null; state = reached.get(state).from()) {
            steps.add(reached.get(state).label() + "  =>  " + state);
        }
        Collections.reverse(steps);
        return List.copyOf(steps);
    }
}
