package io.orderflow.shared;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Stopping the service's own background threads (the outbox relays, the deadline firing). */
public final class BackgroundThreads {

    private BackgroundThreads() {
    }

    /**
     * Takes no more work and waits this long for the work in progress, so that none of it outlives the
     * service's database and Redis clients (tests start the next app in the same JVM); then cuts it off.
     */
    public static void stop(ExecutorService thread, Duration wait) {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
