package io.orderflow.proof;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

import io.orderflow.proof.ExhaustiveChecker.Transition;

/**
 * The one-time order token protocol as a transition system: one token's record in Redis, the orders
 * table in PostgreSQL, and a few requests that each run {@code OrderService.create} with that token.
 * A Lua script is one atomic step, as it is in Redis, and so is a PostgreSQL transaction; between any
 * two steps time may pass, and the faults the model is given may strike.
 *
 * <p>Times are kept relative to now, in ticks, with every time already passed written as 0: the
 * scripts only ever compare a time with now or set one to now plus a constant, so this loses nothing
 * and keeps the number of states finite however long the clock runs.
 */
final class TokenProtocolModel {

    /** orders.tokens.ttl, which is also how long a consumed token's record is kept. */
    static final int TTL = 3;
    /** orders.tokens.lease: shorter than the lifetime, yet a token claimed near its expiry is leased beyond it. */
    static final int LEASE = 2;

    /** The protocol as built, or with one safeguard taken out. */
    enum Variant {
        AS_BUILT,
        /** orders has no UNIQUE (token_hash). */
        NO_UNIQUE_CONSTRAINT,
        /** A token Redis does not know is answered 410 without asking PostgreSQL. */
        UNKNOWN_SKIPS_DATABASE,
        /** After a duplicate insert, Redis is told the attempt's own rolled-back order id instead of the stored order's. */
        DUPLICATE_RECORDS_ITS_OWN_ORDER,
        /** token-complete.lua without its claim id check. */
        COMPLETE_IGNORES_CLAIM_ID,
        /** token-release.lua without its claim id check: any request's release makes the token issued again. */
        RELEASE_IGNORES_CLAIM_ID,
        /** A token is answered 410 without recording its refusal in order_tokens, so a late holder can still insert. */
        NO_REFUSAL_ROW
    }

    enum Fault {
        /** A request stops for good at any step. */
        CRASH,
        /** Redis comes back empty (restart without persistence). */
        REDIS_RESTARTS_EMPTY,
        /** Redis fails over to a replica that missed the latest write to the token. */
        REDIS_LOSES_LAST_WRITE,
        /** A complete or release call fails (timeout, connection lost) without the script having run. */
        REDIS_CALL_FAILS,
        /** A PostgreSQL transaction fails: the insert rolls back or commits with its answer lost, a lookup fails. */
        DATABASE_FAILS
    }

    enum Phase { ABSENT, ISSUED, CLAIMED, CONSUMED }

    /** The token's hash in Redis. Times are ticks from now; claim and order ids are the ids of requests. */
    record TokenRecord(Phase phase, int expiresIn, int claimId, int leaseLeft, int orderId, int keyTtl) {

        static final TokenRecord ABSENT = new TokenRecord(Phase.ABSENT, 0, 0, 0, 0, 0);

        static TokenRecord issued(int expiresIn) {
            return expiresIn == 0 ? ABSENT : new TokenRecord(Phase.ISSUED, expiresIn, 0, 0, 0, expiresIn);
        }

        TokenRecord afterTick() {
            if (phase == Phase.ABSENT) {
                return this;
            }
            if (keyTtl == 1) {
                return ABSENT; // Redis never shows a key past its time to live
            }
            return new TokenRecord(phase, Math.max(0, expiresIn - 1), claimId, Math.max(0, leaseLeft - 1), orderId, keyTtl - 1);
        }

        boolean heldBy(int requestId) {
            return phase == Phase.CLAIMED && claimId == requestId;
        }

        @Override
        public String toString() {
            switch (phase) {
                case ABSENT:
                    return "absent";
                case ISSUED:
                    return "issued (expires in " + expiresIn + ")";
                case CLAIMED:
                    return "claimed by R" + claimId + " (lease " + leaseLeft + ", expires in " + expiresIn + ", key " + keyTtl + ")";
                default:
                    return "consumed by O" + orderId + " (key " + keyTtl + ")";
            }
        }
    }

    /** Where a request is in {@code OrderService.create}: the next step it takes. */
    enum Step {
        CLAIM, INSERT, FIND_AFTER_DUPLICATE, COMPLETE_CREATED, COMPLETE_EXISTING, RELEASE, RELEASE_REFUSED, FIND_BY_ID, FIND_BY_TOKEN,
        REFUSE, FIND_AFTER_REFUSAL, ANSWERED, CRASHED
    }

    enum Answer {
        NONE("-"),
        CREATED("201"),
        REPLAYED("200"),
        REUSED("422"),
        INVALID("410"),
        IN_USE("409"),
        /** 503, or a 409 price-changed or out-of-stock from the insert: this request made no order. */
        FAILED("503");

        final String status;

        Answer(String status) {
            this.status = status;
        }

        boolean namesAnOrder() {
            return this == CREATED || this == REPLAYED || this == REUSED;
        }
    }

    /**
     * One request with the token. Its id (its index plus one) is also its claim id and the id of the order
     * it would insert. {@code orderId} is the order it carries to its next step, then the one it answered with.
     */
    record Request(Step step, int orderId, Answer answer, boolean sentAfterAcknowledgement) {

        static final Request NOT_SENT = new Request(Step.CLAIM, 0, Answer.NONE, false);

        Request at(Step next, int order) {
            return new Request(next, order, answer, sentAfterAcknowledgement);
        }

        String answerText() {
            return answer.status + (answer.namesAnOrder() ? " with O" + orderId : "");
        }

        boolean running() {
            return step != Step.CLAIM && step != Step.ANSWERED && step != Step.CRASHED;
        }
    }

    /**
     * Everything the protocol's outcome depends on. {@code orders} holds bit k when order Ok is in
     * PostgreSQL; {@code refused} when order_tokens holds the token's refusal; {@code acknowledged} is the
     * first order a request was answered with as made (0 while none).
     */
    record State(TokenRecord token, TokenRecord beforeLastWrite, int orders, boolean refused, int acknowledged, List<Request> requests) {

        boolean hasOrder(int orderId) {
            return (orders & 1 << orderId) != 0;
        }

        /** The order findByToken returns. */
        int storedOrder() {
            return Integer.numberOfTrailingZeros(Integer.lowestOneBit(orders));
        }

        State with(int index, Request request) {
            List<Request> changed = new ArrayList<>(requests);
            changed.set(index, request);
            return new State(token, beforeLastWrite, orders, refused, acknowledged, List.copyOf(changed));
        }

        @Override
        public String toString() {
            StringJoiner stored = new StringJoiner(",", "[", "]");
            for (int order = 1; order <= requests.size(); order++) {
                if (hasOrder(order)) {
                    stored.add("O" + order);
                }
            }
            StringJoiner running = new StringJoiner(", ");
            for (int index = 0; index < requests.size(); index++) {
                Request request = requests.get(index);
                running.add(name(index) + " " + (request.step() == Step.ANSWERED
                        ? "answered " + request.answerText()
                        : request.step().name().toLowerCase()));
            }
            return "redis " + token + " | orders " + stored + (refused ? " | refused" : "") + (acknowledged == 0 ? "" : " | acknowledged O" + acknowledged)
                    + " | " + running;
        }
    }

    /** What a request sees of the world besides the other requests. */
    private record Shared(TokenRecord token, int orders, boolean refused, int acknowledged) {
    }

    private final String payloads;
    private final Variant variant;
    private final Set<Fault> faults;
    /** Per acknowledged order: this protocol with one more request, carrying that order's payload, and no faults. */
    private final TokenProtocolModel[] loneRetries;
    private final Map<Shared, Request> loneRetryAnswers = new HashMap<>();

    /** {@code payloads} has one letter per request: requests with the same letter send the same body. */
    TokenProtocolModel(String payloads, Variant variant, Set<Fault> faults) {
        this.payloads = payloads;
        this.variant = variant;
        this.faults = faults.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(faults);
        this.loneRetries = new TokenProtocolModel[payloads.length() + 1];
    }

    State initial() {
        return new State(TokenRecord.issued(TTL), TokenRecord.ABSENT, 0, false, 0,
                List.copyOf(Collections.nCopies(payloads.length(), Request.NOT_SENT)));
    }

    List<Transition<State>> successors(State state) {
        List<Transition<State>> next = new ArrayList<>();
        for (int index = 0; index < state.requests().size(); index++) {
            next.addAll(stepsOf(state, index));
        }
        State later = tick(state);
        if (!later.equals(state)) {
            next.add(new Transition<>("time passes", later));
        }
        State emptied = new State(TokenRecord.ABSENT, TokenRecord.ABSENT, state.orders(), state.refused(), state.acknowledged(),
                state.requests());
        if (faults.contains(Fault.REDIS_RESTARTS_EMPTY) && !emptied.equals(state)) {
            next.add(new Transition<>("Redis restarts empty", emptied));
        }
        if (faults.contains(Fault.REDIS_LOSES_LAST_WRITE) && !state.token().equals(state.beforeLastWrite())) {
            next.add(new Transition<>("Redis fails over to a replica without the last write", new State(state.beforeLastWrite(),
                    state.beforeLastWrite(), state.orders(), state.refused(), state.acknowledged(), state.requests())));
        }
        if (faults.contains(Fault.CRASH)) {
            for (int index = 0; index < state.requests().size(); index++) {
                Request request = state.requests().get(index);
                if (request.running()) {
                    next.add(new Transition<>(name(index) + " crashes", state.with(index, request.at(Step.CRASHED, 0))));
                }
            }
        }
        return next;
    }

    /**
     * The invariant: the token makes at most one order; no request is answered with an order that is not
     * stored; a 410 is final (the token has no order once any request was answered 410); a request sent
     * after an order was acknowledged is answered with that order (422 for another body) or with a 409 or
     * 503 that a retry gets past; and such a retry, sent alone, does get the order.
     */
    Optional<String> brokenInvariant(State state) {
        if (Integer.bitCount(state.orders()) > 1) {
            return Optional.of("the token made more than one order");
        }
        Optional<String> refusedButOrdered = refusedTokenMadeAnOrder(state);
        if (refusedButOrdered.isPresent()) {
            return refusedButOrdered;
        }
        for (int index = 0; index < state.requests().size(); index++) {
            Request request = state.requests().get(index);
            if (request.answer().namesAnOrder() && !state.hasOrder(request.orderId())) {
                return Optional.of(name(index) + " was answered " + request.answerText() + ", which is not stored");
            }
            if (request.sentAfterAcknowledgement() && !answersTheAcknowledgedOrder(state, index, request)) {
                return Optional.of(name(index) + ", sent after O" + state.acknowledged() + " was acknowledged, was answered "
                        + request.answerText());
            }
        }
        if (state.acknowledged() != 0) {
            Request retry = retryAlone(state);
            if (retry.answer() != Answer.REPLAYED || retry.orderId() != state.acknowledged()) {
                return Optional.of("a retry sent alone after O" + state.acknowledged() + " was acknowledged is answered "
                        + retry.answerText());
            }
        }
        return Optional.empty();
    }

    /** Whether a request was refused as having an invalid token while the token still made an order. */
    private static Optional<String> refusedTokenMadeAnOrder(State state) {
        for (int index = 0; index < state.requests().size(); index++) {
            if (state.requests().get(index).answer() == Answer.INVALID && state.orders() != 0) {
                return Optional.of(name(index) + " was answered 410 order-token-invalid, yet the token made O" + state.storedOrder());
            }
        }
        return Optional.empty();
    }

    private boolean answersTheAcknowledgedOrder(State state, int index, Request request) {
        switch (request.answer()) {
            case NONE:
            case IN_USE:
            case FAILED:
                return true;
            case REPLAYED:
            case REUSED:
                return request.orderId() == state.acknowledged() && request.answer() == replayOf(index + 1, state.acknowledged());
            default:
                return false;
        }
    }

    /**
     * A client's retry with the acknowledged order's body, while every other request stands still and
     * nothing fails: it waits out a lease it finds in use, then must get the order. Its answer depends
     * only on Redis, PostgreSQL and the acknowledged order, so each is worked out once.
     */
    private Request retryAlone(State state) {
        return loneRetryAnswers.computeIfAbsent(new Shared(state.token(), state.orders(), state.refused(), state.acknowledged()), shared -> {
            TokenProtocolModel alone = loneRetryOf(shared.acknowledged());
            int retry = state.requests().size();
            State current = new State(shared.token(), TokenRecord.ABSENT, shared.orders(), shared.refused(), shared.acknowledged(),
                    List.copyOf(Collections.nCopies(retry + 1, Request.NOT_SENT)));
            for (int attempt = 0; ; attempt++) {
                while (current.requests().get(retry).step() != Step.ANSWERED) {
                    current = alone.stepsOf(current, retry).get(0).next(); // without faults every step has one outcome
                }
                Request answered = current.requests().get(retry);
                if (answered.answer() != Answer.IN_USE || attempt == LEASE) {
                    return answered;
                }
                current = tick(current).with(retry, Request.NOT_SENT);
            }
        });
    }

    private TokenProtocolModel loneRetryOf(int orderId) {
        if (loneRetries[orderId] == null) {
            loneRetries[orderId] = new TokenProtocolModel(payloads + payloads.charAt(orderId - 1), variant, Set.of());
        }
        return loneRetries[orderId];
    }

    private List<Transition<State>> stepsOf(State state, int index) {
        Request request = state.requests().get(index);
        int id = index + 1;
        String who = name(index) + " ";
        List<Transition<State>> steps = new ArrayList<>(3);
        switch (request.step()) {
            case CLAIM:
                steps.add(claim(state, index));
                break;
            case INSERT:
                if ((state.orders() != 0 || state.refused()) && variant != Variant.NO_UNIQUE_CONSTRAINT) {
                    steps.add(new Transition<>(who + "insert violates " + (state.orders() != 0 ? "UNIQUE (token_hash)" : "the token's refusal"),
                            state.with(index, request.at(Step.FIND_AFTER_DUPLICATE, 0))));
                } else {
                    State inserted = withOrders(state, state.orders() | 1 << id);
                    steps.add(new Transition<>(who + "inserts O" + id, inserted.with(index, request.at(Step.COMPLETE_CREATED, id))));
                    if (faults.contains(Fault.DATABASE_FAILS)) {
                        steps.add(new Transition<>(who + "inserts O" + id + " but the commit's answer is lost",
                                inserted.with(index, request.at(Step.RELEASE, 0))));
                    }
                }
                if (faults.contains(Fault.DATABASE_FAILS)) {
                    steps.add(new Transition<>(who + "insert fails and rolls back", state.with(index, request.at(Step.RELEASE, 0))));
                }
                break;
            case FIND_AFTER_DUPLICATE:
                steps.add(state.orders() == 0
                        ? new Transition<>(who + "finds no order for the token: it was refused", state.with(index, request.at(Step.RELEASE_REFUSED, 0)))
                        : new Transition<>(who + "finds O" + state.storedOrder(),
                                state.with(index, request.at(Step.COMPLETE_EXISTING, state.storedOrder()))));
                addDatabaseFailure(state, index, steps);
                break;
            case COMPLETE_CREATED:
                addComplete(state, index, request.orderId(), id, Answer.CREATED, steps);
                break;
            case COMPLETE_EXISTING:
                int recorded = variant == Variant.DUPLICATE_RECORDS_ITS_OWN_ORDER ? id : request.orderId();
                addComplete(state, index, request.orderId(), recorded, replayOf(id, request.orderId()), steps);
                break;
            case RELEASE:
                steps.add(new Transition<>(who + "releases the token", answer(write(state, release(state.token(), id)), index, Answer.FAILED, 0)));
                if (faults.contains(Fault.REDIS_CALL_FAILS)) {
                    steps.add(new Transition<>(who + "release fails", answer(state, index, Answer.FAILED, 0)));
                }
                break;
            case RELEASE_REFUSED:
                steps.add(new Transition<>(who + "releases the refused token", answer(write(state, release(state.token(), id)), index, Answer.INVALID, 0)));
                if (faults.contains(Fault.REDIS_CALL_FAILS)) {
                    steps.add(new Transition<>(who + "release fails", answer(state, index, Answer.INVALID, 0)));
                }
                break;
            case FIND_BY_ID:
                steps.add(lookUpOrRefuse(state, index, request.orderId(), "by id"));
                addDatabaseFailure(state, index, steps);
                break;
            case FIND_BY_TOKEN:
                steps.add(variant == Variant.UNKNOWN_SKIPS_DATABASE
                        ? new Transition<>(who + "answers 410 for an unknown token", answer(state, index, Answer.INVALID, 0))
                        : lookUpOrRefuse(state, index, tokensOrder(state), "by token"));
                addDatabaseFailure(state, index, steps);
                break;
            case REFUSE:
                boolean refusable = state.orders() == 0 && !state.refused();
                steps.add(refusable
                        ? new Transition<>(who + "records the token's refusal", answer(withRefusal(state), index, Answer.INVALID, 0))
                        : new Transition<>(who + "refusal conflicts", state.with(index, request.at(Step.FIND_AFTER_REFUSAL, 0))));
                if (faults.contains(Fault.DATABASE_FAILS)) {
                    steps.add(new Transition<>(who + "refusal fails", answer(state, index, Answer.FAILED, 0)));
                    if (refusable) {
                        steps.add(new Transition<>(who + "records the refusal but the commit's answer is lost",
                                answer(withRefusal(state), index, Answer.FAILED, 0)));
                    }
                }
                break;
            case FIND_AFTER_REFUSAL:
                steps.add(lookUp(state, index, tokensOrder(state), "by token again"));
                addDatabaseFailure(state, index, steps);
                break;
            default:
                break;
        }
        return steps;
    }

    /** token-claim.lua. */
    private Transition<State> claim(State state, int index) {
        TokenRecord token = state.token();
        int id = index + 1;
        String who = name(index) + " claims: ";
        State sent = state.with(index, new Request(Step.CLAIM, 0, Answer.NONE, state.acknowledged() != 0));
        Request request = sent.requests().get(index);
        if (token.phase() == Phase.ABSENT) {
            return new Transition<>(who + "unknown", sent.with(index, request.at(Step.FIND_BY_TOKEN, 0)));
        }
        if (token.phase() == Phase.CONSUMED) {
            return new Transition<>(who + "consumed by O" + token.orderId(), sent.with(index, request.at(Step.FIND_BY_ID, token.orderId())));
        }
        if (token.phase() == Phase.CLAIMED && token.leaseLeft() > 0) {
            return new Transition<>(who + "in use", answer(sent, index, Answer.IN_USE, 0));
        }
        if (token.expiresIn() == 0) {
            return new Transition<>(who + "unknown (expired)", sent.with(index, request.at(Step.FIND_BY_TOKEN, 0)));
        }
        TokenRecord claimed = new TokenRecord(Phase.CLAIMED, token.expiresIn(), id, LEASE, 0, Math.max(token.keyTtl(), LEASE));
        return new Transition<>(who + "claimed", write(sent, claimed).with(index, request.at(Step.INSERT, 0)));
    }

    /** token-complete.lua, then the answer. */
    private void addComplete(State state, int index, int orderId, int recordedOrder, Answer answer, List<Transition<State>> steps) {
        String who = name(index) + " ";
        TokenRecord token = state.token();
        TokenRecord completed = token.heldBy(index + 1) || variant == Variant.COMPLETE_IGNORES_CLAIM_ID
                ? new TokenRecord(Phase.CONSUMED, token.expiresIn(), 0, 0, recordedOrder, TTL)
                : token;
        steps.add(new Transition<>(who + "completes the token with O" + recordedOrder + (completed == token ? " (not its claim: no-op)" : ""),
                answer(write(state, completed), index, answer, orderId)));
        if (faults.contains(Fault.REDIS_CALL_FAILS)) {
            steps.add(new Transition<>(who + "complete fails", answer(state, index, answer, orderId)));
        }
    }

    /** token-release.lua. */
    private TokenRecord release(TokenRecord token, int requestId) {
        boolean mayRelease = variant == Variant.RELEASE_IGNORES_CLAIM_ID ? token.phase() != Phase.ABSENT : token.heldBy(requestId);
        // PEXPIREAT to the token's own expiry: a time already passed deletes the key
        return mayRelease ? TokenRecord.issued(token.expiresIn()) : token;
    }

    /** OrderService.replayOrRefuse: the order if stored, else the refusal is recorded before 410. */
    private Transition<State> lookUpOrRefuse(State state, int index, int orderId, String how) {
        if (state.hasOrder(orderId) || variant == Variant.NO_REFUSAL_ROW) {
            return lookUp(state, index, orderId, how);
        }
        Request request = state.requests().get(index);
        return new Transition<>(name(index) + " looks the order up " + how + ": none", state.with(index, request.at(Step.REFUSE, 0)));
    }

    /** The order findByToken finds: 0 while none. */
    private static int tokensOrder(State state) {
        return state.orders() == 0 ? 0 : state.storedOrder();
    }

    private Transition<State> lookUp(State state, int index, int orderId, String how) {
        String who = name(index) + " looks the order up " + how + ": ";
        return state.hasOrder(orderId)
                ? new Transition<>(who + "O" + orderId, answer(state, index, replayOf(index + 1, orderId), orderId))
                : new Transition<>(who + "none", answer(state, index, Answer.INVALID, 0));
    }

    private void addDatabaseFailure(State state, int index, List<Transition<State>> steps) {
        if (faults.contains(Fault.DATABASE_FAILS)) {
            steps.add(new Transition<>(name(index) + " lookup fails", answer(state, index, Answer.FAILED, 0)));
        }
    }

    /** OrderService.replay: the stored order for the same body, 422 for another. */
    private Answer replayOf(int requestId, int orderId) {
        return payloads.charAt(requestId - 1) == payloads.charAt(orderId - 1) ? Answer.REPLAYED : Answer.REUSED;
    }

    private State answer(State state, int index, Answer answer, int orderId) {
        Request request = state.requests().get(index);
        boolean made = answer == Answer.CREATED || answer == Answer.REPLAYED;
        State answered = state.with(index, new Request(Step.ANSWERED, orderId, answer, request.sentAfterAcknowledgement()));
        return made && state.acknowledged() == 0
                ? new State(answered.token(), answered.beforeLastWrite(), answered.orders(), answered.refused(), orderId, answered.requests())
                : answered;
    }

    private State write(State state, TokenRecord token) {
        if (token.equals(state.token())) {
            return state;
        }
        TokenRecord previous = faults.contains(Fault.REDIS_LOSES_LAST_WRITE) ? state.token() : TokenRecord.ABSENT;
        return new State(token, previous, state.orders(), state.refused(), state.acknowledged(), state.requests());
    }

    private static State withOrders(State state, int orders) {
        return new State(state.token(), state.beforeLastWrite(), orders, state.refused(), state.acknowledged(), state.requests());
    }

    private static State withRefusal(State state) {
        return new State(state.token(), state.beforeLastWrite(), state.orders(), true, state.acknowledged(), state.requests());
    }

    private static State tick(State state) {
        return new State(state.token().afterTick(), state.beforeLastWrite().afterTick(), state.orders(), state.refused(),
                state.acknowledged(), state.requests());
    }

    private static String name(int index) {
        return "R" + (index + 1);
    }
}
