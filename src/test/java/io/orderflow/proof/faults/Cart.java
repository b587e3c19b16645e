package io.orderflow.proof.faults;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.orderflow.proof.faults.ProofClient.Answer;
import io.orderflow.proof.faults.ProofClient.Request;

/**
 * One customer's purchase and everything its clients were answered: the cart is submitted with an
 * order token from several instances at once (with a new token if the last one was forgotten), then,
 * as planned, paid (twice at once, with two keys) and cancelled. A cart may instead be submitted by
 * clients that each take a token of their own and all send one Idempotency-Key, as a client does that
 * fetches a fresh token for every retry: then the key alone keeps it to one order.
 */
final class Cart {

    enum Plan {
        ORDER_ONLY, PAY, PAY_RACING_CANCEL, PAY_THEN_CANCEL
    }

    enum Kind {
        SUBMIT, PAY, CANCEL
    }

    /** A request that changes something, and the final answer its client got. */
    record Exchange(Kind kind, Request request, Answer answer) {
    }

    /** Unique in the whole proof, so that its Idempotency-Keys are too: the scenario and a number. */
    final String label;
    /** Which instance its first request goes to, the others following in turn. */
    final int number;
    final String user;
    final String body;
    final Plan plan;
    /** How many clients submit it at once with one token. */
    final int copies;
    /** Whether each client takes its own token, all of them sending the cart's one Idempotency-Key. */
    final boolean tokenPerClient;
    /** Whether each client sends the one token with an Idempotency-Key of its own: the token alone keeps them to one order. */
    final boolean keyPerClient;
    final List<String> tokens = Collections.synchronizedList(new ArrayList<>());
    final List<Exchange> exchanges = Collections.synchronizedList(new ArrayList<>());
    /** What a token request was answered instead of 201, which broke the journey off before its order; null while none was. */
    volatile Answer tokenRefused;

    Cart(String scenario, int number, Plan plan, int copies) {
        this(scenario, number, plan, copies, false);
    }

    Cart(String scenario, int number, Plan plan, int copies, boolean tokenPerClient) {
        this(scenario, number, plan, copies, tokenPerClient, false);
    }

    Cart(String scenario, int number, Plan plan, int copies, boolean tokenPerClient, boolean keyPerClient) {
        this.label = scenario + "-" + number;
        this.number = number;
        this.user = number % 2 == 0 ? "alice" : "bob";
        this.body = "{\"currency\":\"CNY\",\"items\":[{\"sku\":\"ABC-1\",\"quantity\":" + (1 + number % 5) + "}]}";
        this.plan = plan;
        this.copies = copies;
        this.tokenPerClient = tokenPerClient;
        this.keyPerClient = keyPerClient;
    }

    List<Exchange> exchanges(Kind kind) {
        synchronized (exchanges) {
            return exchanges.stream().filter(exchange -> exchange.kind() == kind).toList();
        }
    }

    /** The order the clients were given (201), if any. */
    String orderId() {
        return exchanges(Kind.SUBMIT).stream().filter(exchange -> exchange.answer().status() == 201).map(exchange -> exchange.answer().orderId())
                .findFirst().orElse(null);
    }

    /** The status the answers promise: cancelled once a cancel succeeded, paid once a pay did, else created. */
    String promisedStatus() {
        if (answeredOk(Kind.CANCEL)) {
            return "cancelled";
        }
        return answeredOk(Kind.PAY) ? "paid" : "created";
    }

    private boolean answeredOk(Kind kind) {
        return exchanges(kind).stream().anyMatch(exchange -> exchange.answer().status() == 200);
    }
}
