package io.orderflow.shared;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/** Stopping the service's own background threads (the outbox relays, the deadline firing). */
public final class BackgroundThreads {

    private static final Logger LOG = Logger.getLogger(BackgroundThreads.class);

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
                // Interrupted, the work ends at its next wait; it must not go on once the clients are closed (or, in
                // the tests' JVM, into the next app).
                if (!thread.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.warnf("A background thread still ran %s after it was interrupted at the stop", wait);
                }
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
