package io.orderflow.proof.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.Supplier;

import io.orderflow.proof.faults.Cart.Exchange;
import io.orderflow.proof.faults.Cart.Kind;
import io.orderflow.proof.faults.ProofClient.Answer;
import io.orderflow.proof.faults.ProofClient.Request;

/**
 * Customers shopping concurrently: each shopper takes the next cart and goes through its journey, its
 * concurrent requests spread over the instances. Runs until the carts run out or it is stopped.
 */
final class Shoppers implements AutoCloseable {

    /** A customer whose token was forgotten (410) fetches a new one and submits again, up to this many rounds in all. */
    private static final int MOST_ROUNDS_PER_CART = 3;
    private static final String PAY_BODY = "{\"paymentMethod\":\"pm_card_visa\"}";

    private final ProofClient client;
    private final int instances;
    private final Queue<Cart> done = new ConcurrentLinkedQueue<>();
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicBoolean stopping = new AtomicBoolean();
    /** What broke a shopper: a fault of the proof itself, which must fail it rather than thin its traffic. */
    private final Queue<Throwable> broken = new ConcurrentLinkedQueue<>();
    private final ExecutorService concurrentRequests = Executors.newCachedThreadPool(daemon("proof-request"));
    private final List<Thread> shoppers = new ArrayList<>();

    private Shoppers(ProofClient client, int instances) {
        this.client = client;
        this.instances = instances;
    }

    /** Starts shoppers that go through the carts the factory makes (numbered from 0) until it gives null or they are stopped. */
    static Shoppers start(ProofClient client, int instances, int shoppers, IntFunction<Cart> carts) {
        Shoppers load = new Shoppers(client, instances);
        AtomicInteger next = new AtomicInteger();
        for (int i = 0; i < shoppers; i++) {
            Thread shopper = daemon("proof-shopper").newThread(() -> {
                Cart cart;
                try {
                    while (!load.stopping.get() && (cart = carts.apply(next.getAndIncrement())) != null) {
                        load.shop(cart);
                        load.done.add(cart);
                        // A journey broken off without its order token failed: the audit finds it.
                        if (cart.tokenRefused == null) {
                            load.completed.incrementAndGet();
                        }
                    }
                } catch (RuntimeException | Error e) {
                    load.broken.add(e);
                    load.stopping.set(true);
                }
            });
            load.shoppers.add(shopper);
            shopper.start();
        }
        return load;
    }

    int completed() {
        return completed.get();
    }

    /** Tells the shoppers to take no new cart. */
    void stop() {
        stopping.set(true);
    }

    /** Waits until every shopper has stopped (out of carts, or told to stop and done with its journey); returns every cart. */
    List<Cart> finish() {
        shoppers.forEach(shopper -> {
            try {
                shopper.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        concurrentRequests.shutdown();
        if (!broken.isEmpty()) {
            IllegalStateException failure = new IllegalStateException("A shopper broke down");
            broken.forEach(failure::addSuppressed);
            throw failure;
        }
        return List.copyOf(done);
    }

    private void shop(Cart cart) {
        for (int round = 0; round < MOST_ROUNDS_PER_CART && cart.orderId() == null; round++) {
            String key = cart.tokenPerClient ? "submit-" + cart.label : "submit-" + cart.label + "-" + round;
            List<Supplier<Exchange>> copies = new ArrayList<>();
            String token = null;
            for (int copy = 0; copy < cart.copies; copy++) {
                if (token == null || cart.tokenPerClient) {
                    token = newToken(cart, round * cart.copies + copy);
                    if (token == null) {
                        return;
                    }
                }
                int instance = cart.number + copy;
                String sent = token;
                String sentKey = cart.keyPerClient ? key + "-" + copy : key;
                copies.add(() -> exchange(Kind.SUBMIT, new Request(cart.user, "/orders", cart.body, sent, sentKey), instance));
            }
            List<Exchange> answers = atOnce(copies);
            cart.exchanges.addAll(answers);
            if (answers.stream().noneMatch(exchange -> exchange.answer().status() == 410)) {
                break;
            }
        }
        String orderId = cart.orderId();
        if (orderId != null && cart.plan != Cart.Plan.ORDER_ONLY) {
            payAndCancel(cart, orderId);
        }
    }

    /** A fresh order token for the cart, or null when none was issued (the cart keeps the answer). */
    private String newToken(Cart cart, int number) {
        Answer issued = client.send(new Request(cart.user, "/orders/token", null, null, "token-" + cart.label + "-" + number), cart.number);
        if (issued.status() != 201) {
            cart.tokenRefused = issued;
            return null;
        }
        cart.tokens.add(issued.token());
        return issued.token();
    }

    private void payAndCancel(Cart cart, String orderId) {
        Supplier<Exchange> firstPay = () -> exchange(Kind.PAY, pay(cart, orderId, 0), cart.number);
        Supplier<Exchange> secondPay = () -> exchange(Kind.PAY, pay(cart, orderId, 1), cart.number + 1);
        Supplier<Exchange> cancel = () -> exchange(Kind.CANCEL,
                new Request(cart.user, "/orders/" + orderId + "/cancel", null, null, "cancel-" + cart.label), cart.number + 2);
        switch (cart.plan) {
            case PAY:
                cart.exchanges.addAll(atOnce(List.of(firstPay, secondPay)));
                break;
            case PAY_RACING_CANCEL:
                cart.exchanges.addAll(atOnce(List.of(firstPay, secondPay, cancel)));
                break;
            case PAY_THEN_CANCEL:
                cart.exchanges.add(firstPay.get());
                cart.exchanges.add(cancel.get());
                break;
            default:
                throw new IllegalStateException("No payment planned for " + cart.plan);
        }
    }

    private static Request pay(Cart cart, String orderId, int attempt) {
        return new Request(cart.user, "/orders/" + orderId + "/pay", PAY_BODY, null, "pay-" + cart.label + "-" + attempt);
    }

    private Exchange exchange(Kind kind, Request request, int instance) {
        return new Exchange(kind, request, client.send(request, Math.floorMod(instance, instances)));
    }

    private List<Exchange> atOnce(List<Supplier<Exchange>> requests) {
        List<CompletableFuture<Exchange>> running = requests.stream().map(request -> CompletableFuture.supplyAsync(request, concurrentRequests))
                .toList();
        return running.stream().map(CompletableFuture::join).toList();
    }

    /** Daemon threads of this name: a proof's load never keeps the test's JVM alive. */
    static ThreadFactory daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        stop();
        finish();
    }
}
