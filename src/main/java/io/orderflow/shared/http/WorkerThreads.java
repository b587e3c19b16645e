package io.orderflow.shared.http;

import java.util.function.Supplier;

import io.opentelemetry.context.Scope;
import io.quarkus.runtime.BlockingOperationControl;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Blocking work (JDBC, a blocking Redis call) of a request that runs on the event loop, handed to a worker thread
 * of the request's own Vert.x context, so that its request scope goes with it.
 */
public final class WorkerThreads {

    private WorkerThreads() {
    }

    /** Runs the work on a worker thread when called on the event loop; in place on a worker thread. */
    public static <T> Uni<T> offEventLoop(Supplier<T> work) {
        if (BlockingOperationControl.isBlockingAllowed()) {
            return Uni.createFrom().item(work);
        }
        return Handoff.take().run(work);
    }

    /**
     * The request as it stands on the event loop, taken before any asynchronous step: its Vert.x context and its
     * trace context. A reply (Redis's) may arrive on a context of its own, and a span of the step that waited for it may
     * still be current there; work handed off later runs in the request's contexts all the same.
     */
    public record Handoff(Context context, io.opentelemetry.context.Context trace) {

        public static Handoff take() {
            return new Handoff(Vertx.currentContext(), io.opentelemetry.context.Context.current());
        }

        /** Runs the work on a worker thread of the request's context, under its trace context. */
        public <T> Uni<T> run(Supplier<T> work) {
            return Uni.createFrom().completionStage(() -> context.executeBlocking(() -> {
                try (Scope ignored = trace.makeCurrent()) {
                    return work.get();
                }
            }, false).toCompletionStage());
        }
    }
}
