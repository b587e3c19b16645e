package io.orderflow.shared.http;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.metrics.AppGauges;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Serves the database-bound endpoints at most a limit of requests at a time and sheds
 * the excess, so that past capacity the requests taken stay fast instead of every request queueing for a
 * connection until all are late. The limit adapts to latency (Netflix's Vegas: it falls while answers queue, and
 * rises while they do not). A request past it waits up to {@code orders.overload.max-wait} for a place, in order of
 * arrival, so a burst passes; when the waiting line is full, or the wait runs out, it is answered 503
 * {@code service-unavailable} with Retry-After at once. It runs after the caller is authenticated and the body is
 * read, and before any endpoint or filter: a refused request has claimed no Idempotency-Key, used no order token
 * and touched no table, so sending it again does it once. Health, metrics, order tokens (Redis only) and static
 * files are never held back.
 */
@ApplicationScoped
class LoadShedder {

    /** After the body is read ({@link RequestBodies}), before Quarkus REST's handler. */
    static final int ORDER = RequestBodies.BEFORE_READING + 3;
    /** Addresses that reach no table, or must answer however busy the service is. */
    static final List<String> NEVER_SHED = List.of("/q/", "/orders/token", "/assets/", "/favicon.ico", "/sandbox/");

    private final OverloadConfig config;
    private final AppGauges gauges;
    private final SimpleLimiter<Void> limiter;
    private final Counter shed;
    private final Buffer refusal;
    private final String retryAfter;
    // Guarded by itself; touched on the event loop and nowhere else for one loop, briefly by each of several.
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();

    LoadShedder(OverloadConfig config, AppGauges gauges, MeterRegistry metrics, ObjectMapper json) throws JsonProcessingException {
        this.config = config;
        this.gauges = gauges;
        this.limiter = SimpleLimiter.newBuilder().named("http").limit(VegasLimit.newBuilder()
                .initialLimit(config.initialLimit()).maxConcurrency(config.maxLimit())
                .decreaseFunction(limit -> Math.max(config.minLimit(), limit - Math.max(1, Math.log10(limit)))).build()).build();
        this.shed = Counters.single(metrics, "orders.http.shed", "Requests refused with 503 because the service was at its limit");
        this.refusal = Buffer.buffer(json.writeValueAsBytes(Problem.of(ProblemCode.SERVICE_UNAVAILABLE,
                "The service is at capacity and did not take this request; nothing of it was done. Send it again after Retry-After.")));
        this.retryAfter = String.valueOf(Math.max(1, config.retryAfter().toSeconds()));
    }

    void register(@Observes Router router) {
        if (config.enabled()) {
            router.route().order(ORDER).handler(this::admit);
        }
    }

    void registerGauges(@Observes StartupEvent start) {
        gauges.register(Gauge.builder("orders.http.limit", limiter, SimpleLimiter::getLimit)
                .description("Requests the database-bound endpoints serve at once, as the limit stands"));
        gauges.register(Gauge.builder("orders.http.in.flight", limiter, SimpleLimiter::getInflight)
                .description("Requests the database-bound endpoints are serving"));
        gauges.register(Gauge.builder("orders.http.waiting", this, LoadShedder::waitingCount)
                .description("Requests waiting for a place under the limit"));
    }

    private void admit(RoutingContext context) {
        if (isNeverShed(context.normalizedPath())) {
            context.next();
            return;
        }
        Optional<Limiter.Listener> place = limiter.acquire(null);
        if (place.isPresent()) {
            serve(context, place.get());
            return;
        }
        Waiting request = new Waiting(context, context.vertx().getOrCreateContext());
        synchronized (waiting) {
            if (waiting.size() >= config.maxWaiting()) {
                refuse(context);
                return;
            }
            waiting.addLast(request);
        }
        long timer = context.vertx().setTimer(config.maxWait().toMillis(), expired -> {
            if (request.take()) {
                synchronized (waiting) {
                    waiting.remove(request);
                }
                refuse(context);
            }
        });
        request.timer = timer;
        // A place may have come free between the refused acquire and joining the line.
        admitWaiting();
    }

    private void serve(RoutingContext context, Limiter.Listener place) {
        context.addEndHandler(ended -> {
            int status = context.response().getStatusCode();
            if (ended.failed()) {
                // The client left before its answer was written: the time says nothing of the service's pace.
                place.onIgnore();
            } else if (status == 503) {
                // The service could not serve it (a pool or backing service gave out): a sign of overload.
                place.onDropped();
            } else {
                place.onSuccess();
            }
            admitWaiting();
        });
        context.next();
    }

    /** Hands each free place to the longest-waiting request still waiting, on its own event loop. */
    private void admitWaiting() {
        while (true) {
            Waiting next;
            synchronized (waiting) {
                next = waiting.peekFirst();
                if (next == null) {
                    return;
                }
            }
            Optional<Limiter.Listener> place = limiter.acquire(null);
            if (place.isEmpty()) {
                return;
            }
            synchronized (waiting) {
                if (waiting.peekFirst() == next) {
                    waiting.pollFirst();
                } else {
                    next = null;
                }
            }
            if (next == null || !next.take()) {
                // Another thread took it, or its wait ran out: the place goes back.
                place.get().onIgnore();
                continue;
            }
            Waiting admitted = next;
            admitted.context.vertx().cancelTimer(admitted.timer);
            admitted.eventLoop.runOnContext(resumed -> {
                if (admitted.context.response().closed()) {
                    place.get().onIgnore();
                    admitWaiting();
                } else {
                    serve(admitted.context, place.get());
                }
            });
        }
    }

    private void refuse(RoutingContext context) {
        shed.increment();
        context.response().setStatusCode(ProblemCode.SERVICE_UNAVAILABLE.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .putHeader(HttpHeaders.RETRY_AFTER, retryAfter)
                .end(refusal);
    }

    private int waitingCount() {
        synchronized (waiting) {
            return waiting.size();
        }
    }

    static boolean isNeverShed(String path) {
        return Addresses.listed(NEVER_SHED, path);
    }

    /** A request waiting for a place; taken once, by the place that frees or by its timer. */
    private static final class Waiting {
        private final RoutingContext context;
        private final Context eventLoop;
        private final AtomicBoolean taken = new AtomicBoolean();
        private volatile long timer;

        Waiting(RoutingContext context, Context eventLoop) {
            this.context = context;
            this.eventLoop = eventLoop;
        }

        boolean take() {
            return taken.compareAndSet(false, true);
        }
    }
}
