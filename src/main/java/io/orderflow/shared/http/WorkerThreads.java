package io.orderflow.shared.http;

import java.util.function.Supplier;

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
        return on(Vertx.currentContext(), work);
    }

    /** Runs the work on a worker thread of this context (the request's, taken while on its event loop). */
    public static <T> Uni<T> on(Context context, Supplier<T> work) {
        return Uni.createFrom().completionStage(() -> context.executeBlocking(work::get, false).toCompletionStage());
    }
}
