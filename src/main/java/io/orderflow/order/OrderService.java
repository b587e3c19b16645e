package io.orderflow.order;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.catalog.StockLine;
import io.orderflow.catalog.StockPrecheck;
import io.orderflow.customer.ShippingAddress;
import io.orderflow.idempotency.IdempotencyRecords;
import io.orderflow.idempotency.PendingKeyClaim;
import io.orderflow.shared.http.Paging;
import io.orderflow.shared.http.WorkerThreads;
import io.orderflow.shared.logging.BusinessEvent;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.redis.ClaimAlongside;
import io.orderflow.shared.security.Caller;
import io.orderflow.token.OrderTokens;
import io.orderflow.token.TokenClaim;
import io.orderflow.token.TokenRejection;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;

/**
 * Creates orders exactly once per order token. Redis decides quickly who may use a token;
 * PostgreSQL's unique keys on the token decide for good, between orders and between an order and a 410.
 */
@Startup
@ApplicationScoped
public class OrderService {

    private static final Logger LOG = Logger.getLogger(OrderService.class);

    private final OrderRequestValidator requests;
    private final OrderTokens tokens;
    private final OrderStore store;
    private final OrderPricing pricing;
    private final StockPrecheck precheck;
    private final IdempotencyRecords keys;
    private final PendingKeyClaim pendingKey;
    private final Counter ordersCreated;
    private final Counter replays;

    public OrderService(OrderRequestValidator requests, OrderTokens tokens, OrderStore store, OrderPricing pricing,
            StockPrecheck precheck, IdempotencyRecords keys, PendingKeyClaim pendingKey, MeterRegistry metrics) {
        this.requests = requests;
        this.tokens = tokens;
        this.store = store;
        this.pricing = pricing;
        this.precheck = precheck;
        this.keys = keys;
        this.pendingKey = pendingKey;
        this.ordersCreated = Counters.single(metrics, "orders.created", "Orders created");
        this.replays = Counter.builder("orders.replays").description("Orders answered again to a repeat of their request")
                .tag("source", "order-token").register(metrics);
    }

    /**
     * The answer to {@code POST /orders}: the order's id, its body (JSON, exactly as the creation first
     * answered it) and whether this answer is a replay.
     */
    public record Creation(UUID id, byte[] body, boolean replayed) {

        Creation(OrderStore.Stored order, boolean replayed) {
            this(order.id(), order.answer().getBytes(StandardCharsets.UTF_8), replayed);
        }
    }

    /**
     * {@code POST /orders}, called on the event loop: the token (and the request's Idempotency-Key) claimed without
     * blocking, a repeat that Redis answers is answered there; everything else (a new order, PostgreSQL's answer, what
     * the key's claim found) on a worker thread.
     */
    public Uni<Creation> create(Caller caller, String token, OrderRequest body) {
        NewOrder request = validate(token, body);
        Optional<ClaimAlongside> key = pendingKey.take();
        WorkerThreads.Handoff handoff = WorkerThreads.Handoff.take();
        if (key.isPresent()) {
            return tokens.claimWithKey(caller.name(), token, request.fingerprint().value(), key.get())
                    .flatMap(claimed -> handoff.run(() -> create(caller, claimed.get(), request)));
        }
        return tokens.tryClaim(caller.name(), token, request.fingerprint().value()).flatMap(claim -> claim.outcome() == TokenClaim.Outcome.CONSUMED
                && claim.answer() != null
                ? Uni.createFrom().item(() -> replayedFromRedis(claim, caller, request))
                : handoff.run(() -> create(caller, claim, request)));
    }

    /** {@code POST /orders} on a worker thread, as the checkout form places its order. */
    public Creation createBlocking(Caller caller, String token, OrderRequest body) {
        NewOrder request = validate(token, body);
        return create(caller, tokens.claim(caller.name(), token, request.fingerprint().value(), pendingKey.take()), request);
    }

    private NewOrder validate(String token, OrderRequest body) {
        NewOrder request = requests.validate(body);
        if (token == null || token.isBlank()) {
            throw new ProblemException(Problem.of(ProblemCode.ORDER_TOKEN_MISSING, "Send the token from POST /orders/token in the Order-Token header."));
        }
        return request;
    }

    private Creation create(Caller caller, TokenClaim claim, NewOrder request) {
        return switch (claim.outcome()) {
            case CLAIMED -> insert(caller, claim, request);
            case IN_USE -> create(caller, tokens.awaitClaim(claim), request);
            // The answer Redis or PostgreSQL keeps goes out as it was first given, byte for byte: read into this
            // version's OrderView, a field or a status value of a newer version would be dropped or refused.
            case CONSUMED -> claim.answer() != null
                    ? replayedFromRedis(claim, caller, request)
                    : replayOrRefuse(store.findByToken(claim.tokenHash(), caller), claim.tokenHash(), caller, request);
            // Redis knows no such token; PostgreSQL may still know the order it produced.
            case UNKNOWN -> replayOrRefuse(store.findByToken(claim.tokenHash(), caller), claim.tokenHash(), caller, request);
        };
    }

    private Creation replayedFromRedis(TokenClaim claim, Caller caller, NewOrder request) {
        return replayed(new OrderStore.Stored(claim.orderId(), caller.name(), claim.fingerprint(), claim.answer()), request);
    }

    public OrderView get(Caller caller, String id) {
        return parseId(id).flatMap(uuid -> store.find(uuid, caller)).orElseThrow(OrderService::notFound);
    }

    /** The orders the caller may see that pass the query's filters, newest first, a page of {@code limit} after the cursor. */
    public OrderPage list(Caller caller, OrderQuery query, String limit, String after) {
        OrderQuery.Filter filter = query.filterFor(caller);
        int size = Paging.limit(limit);
        UUID cursor = Paging.after(after, UUID::fromString);
        List<OrderView> page = store.list(caller, filter, cursor, size + 1);
        if (page.size() <= size) {
            return new OrderPage(page, null);
        }
        List<OrderView> items = page.subList(0, size);
        return new OrderPage(items, Paging.cursor(items.get(size - 1).id().toString()));
    }

    private Creation insert(Caller caller, TokenClaim claim, NewOrder request) {
        OrderStore.Stored created;
        StockPrecheck.Hold hold = StockPrecheck.Hold.NONE;
        try {
            hold = precheck.take(request.lines().stream().map(line -> new StockLine(line.sku(), line.quantity())).toList());
            created = place(caller, claim.tokenHash(), request);
        } catch (DuplicateOrderTokenException e) {
            precheck.settle(hold, false);
            // Redis had forgotten that the token was used (failover, lost write) or refused: PostgreSQL had not.
            Optional<OrderStore.Stored> existing = store.findByToken(claim.tokenHash(), caller);
            if (existing.isEmpty()) {
                // Another request answered 410 while this one held the token: that answer stands.
                releaseRefused(claim);
                throw invalidToken();
            }
            recordConsumption(claim, existing.get());
            return replay(existing, caller, request);
        } catch (RuntimeException e) {
            precheck.settle(hold, false);
            tokens.release(claim);
            throw e;
        }
        precheck.settle(hold, true);
        recordConsumption(claim, created);
        ordersCreated.increment();
        BusinessEvent.CREATED.log(created.id(), caller.name());
        return new Creation(created, false);
    }

    /**
     * Reads what the order needs (its products, the customer's saved address, its number), prices it, then stores it
     * with everything it writes and reserves its stock in one statement, and keeps the answer of the request's
     * Idempotency-Key, in one transaction: a price that changed, a token already used, a key kept already or stock
     * that ran out leaves nothing behind. A product's row stays locked from the reservation to the commit, so a flash
     * sale's orders queue on it for as short a time as can be.
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    OrderStore.Stored place(Caller caller, String tokenHash, NewOrder request) {
        OrderStore.Inputs inputs = store.inputs(caller, request.lines().stream().map(NewOrder.Line::sku).toList());
        ShippingAddress address = shippingAddress(request, inputs.savedAddress());
        OrderPricing.PricedOrder priced = pricing.price(caller, request, inputs.products());
        // The address the request names becomes the customer's saved one.
        boolean keepAddress = inputs.savedAddress().filter(address::equals).isEmpty();
        OrderStore.Stored created = store.insert(caller, tokenHash, request.fingerprint().value(), priced, address, keepAddress,
                inputs.orderNumber());
        keys.keepWithEffect(OrderResponses.created(new Creation(created, false)));
        return created;
    }

    /** The address the request names, or else the saved one: an order is never placed without knowing where it goes. */
    private static ShippingAddress shippingAddress(NewOrder request, Optional<ShippingAddress> saved) {
        if (request.address() != null) {
            return request.address();
        }
        return saved.orElseThrow(() -> new ProblemException(Problem.of(ProblemCode.SHIPPING_ADDRESS_MISSING,
                "This order names no shippingAddress and you have no saved address: send one with the order; it is then kept for your next orders.")));
    }

    /**
     * Tells Redis which order the token produced, and the answer a repeat gets without reading the
     * order again. If Redis fails now, the lease runs out and PostgreSQL answers the retry.
     */
    private void recordConsumption(TokenClaim claim, OrderStore.Stored created) {
        try {
            tokens.complete(claim, created.id(), created.requestFingerprint(), created.answer());
        } catch (RuntimeException e) {
            LOG.warnf("Order %s is stored but Redis did not record its token: %s", created.id(), e.toString());
        }
    }

    /**
     * Gives a refused token's claim back, so that the next request is told 410 without waiting out the
     * lease. If Redis fails now, the lease runs out instead; the answer is 410 either way.
     */
    private void releaseRefused(TokenClaim claim) {
        try {
            tokens.release(claim);
        } catch (RuntimeException e) {
            LOG.warnf("Redis did not release a refused token's claim: %s", e.toString());
        }
    }

    /**
     * Replays the token's order. With none, the token is refused for good before 410 is answered,
     * unless an order of the token committed meanwhile (its holder outlived Redis's record of the
     * claim): that order is replayed instead.
     */
    private Creation replayOrRefuse(Optional<OrderStore.Stored> stored, String tokenHash, Caller caller, NewOrder request) {
        if (stored.isEmpty() && !store.refuse(caller, tokenHash)) {
            return replay(store.findByToken(tokenHash, caller), caller, request);
        }
        return replay(stored, caller, request);
    }

    private Creation replay(Optional<OrderStore.Stored> stored, Caller caller, NewOrder request) {
        return replayed(stored.filter(s -> s.customer().equals(caller.name())).orElseThrow(this::invalidToken), request);
    }

    /** The token's order answered again, to the request the token was used for; 409 {@code order-token-reused} to any other. */
    private Creation replayed(OrderStore.Stored order, NewOrder request) {
        if (!request.fingerprint().matches(order.requestFingerprint())) {
            tokens.countRejected(TokenRejection.REUSED);
            throw new ProblemException(Problem.of(ProblemCode.ORDER_TOKEN_REUSED, "This order token was already used for a different order; get a new one for a new order.")
                    .with("orderId", order.id()));
        }
        replays.increment();
        return new Creation(order, true);
    }

    private ProblemException invalidToken() {
        tokens.countRejected(TokenRejection.INVALID);
        return new ProblemException(Problem.of(ProblemCode.ORDER_TOKEN_INVALID, "This order token is unknown, expired or not yours; get a new one from POST /orders/token."));
    }

    static Optional<UUID> parseId(String id) {
        try {
            return Optional.of(UUID.fromString(id));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static ProblemException notFound() {
        return new ProblemException(Problem.of(ProblemCode.ORDER_NOT_FOUND, "There is no such order among yours."));
    }
}
