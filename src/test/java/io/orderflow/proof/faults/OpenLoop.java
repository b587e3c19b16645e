package io.orderflow.proof.faults;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;

/**
 * Load on one instance in the two ways that tell capacity from overload: a closed loop (so many connections, each sending
 * its next request when its last is answered: the rate the service serves) and an open loop (requests sent at a fixed
 * rate whatever the answers' pace, as customers arrive; each request's time counts from when it was due, so a late send
 * is not a fast answer). One Vert.x event loop sends everything, cheaply enough to offer thousands a second beside the
 * service on the same cores.
 */
final class OpenLoop implements AutoCloseable {

    /** A request to send: its method, path, headers and body (null for none). */
    record Shot(HttpMethod method, String path, Map<String, String> headers, String body) {
    }

    /**
     * What one request got: when it was due, when it went out on a connection and when it was answered (ns), its status (0: no
     * answer), Retry-After, and its body.
     */
    record Result(int number, long dueNanos, long sentNanos, long answeredNanos, int status, String retryAfter, String body) {

        /** How late the load itself sent it, in milliseconds: a figure of the load's own pace, not the service's. */
        double lateMillis() {
            return (sentNanos - dueNanos) / 1e6;
        }

        double millis() {
            return (answeredNanos - dueNanos) / 1e6;
        }

        boolean accepted() {
            return status == 200 || status == 201;
        }
    }

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final int MOST_CONNECTIONS = 512;

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    private final HttpClient http;

    OpenLoop(URI base) {
        http = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(base.getHost()).setDefaultPort(base.getPort()).setKeepAlive(true)
                .setConnectTimeout(2000), new PoolOptions().setHttp1MaxSize(MOST_CONNECTIONS));
    }

    /**
     * Requests {@code first}, {@code first + 1}, ... of {@code shots}, each of so many connections sending its next when its last
     * is answered, for so long or until {@code most} were sent.
     */
    List<Result> closed(int connections, Duration during, int first, int most, IntFunction<Shot> shots) {
        long end = System.nanoTime() + during.toNanos();
        AtomicInteger next = new AtomicInteger(first);
        List<Result> results = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            CompletableFuture<Void> loop = new CompletableFuture<>();
            loops.add(loop);
            vertx.runOnContext(start -> sendNext(next, end, (long) first + most, shots, results, loop));
        }
        loops.forEach(CompletableFuture::join);
        return sorted(results);
    }

    private void sendNext(AtomicInteger next, long end, long stop, IntFunction<Shot> shots, List<Result> results, CompletableFuture<Void> loop) {
        long now = System.nanoTime();
        int number = next.getAndIncrement();
        if (now >= end || number >= stop) {
            loop.complete(null);
            return;
        }
        send(number, shots.apply(number), now).thenAccept(result -> {
            results.add(result);
            vertx.runOnContext(again -> sendNext(next, end, stop, shots, results, loop));
        });
    }

    /**
     * Requests {@code first}, {@code first + 1}, ... of {@code shots} at {@code perSecond}, evenly spaced, for so long; returns
     * every answer once all have come.
     */
    List<Result> open(double perSecond, Duration during, int first, IntFunction<Shot> shots) {
        long count = Math.round(perSecond * during.toNanos() / 1e9);
        long start = System.nanoTime();
        List<CompletableFuture<Result>> pending = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Void> allSent = new CompletableFuture<>();
        AtomicInteger sent = new AtomicInteger();
        // Each millisecond, whatever is due by then goes out, each timed from when it was due.
        long timer = vertx.setPeriodic(1, tick -> {
            long elapsed = System.nanoTime() - start;
            long due = Math.min(count, (long) Math.floor(elapsed * perSecond / 1e9) + 1);
            while (sent.get() < due) {
                int index = sent.getAndIncrement();
                long dueAt = start + Math.round(index * 1e9 / perSecond);
                pending.add(send(first + index, shots.apply(first + index), dueAt));
            }
            if (sent.get() >= count) {
                vertx.cancelTimer(tick);
                allSent.complete(null);
            }
        });
        try {
            allSent.get(during.toSeconds() + 60, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.cancelTimer(timer);
            throw new IllegalStateException("The open loop did not send its requests", e);
        }
        List<Result> results = new ArrayList<>();
        synchronized (pending) {
            pending.forEach(answer -> results.add(answer.join()));
        }
        return sorted(results);
    }

    private CompletableFuture<Result> send(int number, Shot shot, long dueNanos) {
        CompletableFuture<Result> result = new CompletableFuture<>();
        long[] sent = { 0 };
        RequestOptions options = new RequestOptions().setMethod(shot.method()).setURI(shot.path()).setIdleTimeout(REQUEST_TIMEOUT.toMillis());
        shot.headers().forEach(options::putHeader);
        http.request(options)
                .compose(request -> {
                    sent[0] = System.nanoTime();
                    return shot.body() == null ? request.send() : request.send(Buffer.buffer(shot.body()));
                })
                .compose(response -> response.body().map(body -> new Result(number, dueNanos, sent[0], System.nanoTime(), response.statusCode(),
                        response.getHeader("Retry-After"), body.toString())))
                .onComplete(answered -> result.complete(answered.succeeded() ? answered.result()
                        : new Result(number, dueNanos, sent[0], System.nanoTime(), 0, null, String.valueOf(answered.cause()))));
        return result;
    }

    private static List<Result> sorted(List<Result> results) {
        List<Result> copy = new ArrayList<>(results);
        copy.sort((a, b) -> Integer.compare(a.number(), b.number()));
        return copy;
    }

    /** The p-th percentile (0-100) of these times in milliseconds; NaN for none. */
    static double percentile(List<Double> millis, double p) {
        if (millis.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[Math.max(0, (int) Math.ceil(p / 100 * sorted.length) - 1)];
    }

    @Override
    public void close() {
        http.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
