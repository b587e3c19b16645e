package io.orderflow.shared;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The instance's background work: the scheduled runs in progress ({@link StopsWithTheApp}), any number
 * at once, each holding the read side of a lock, and whether the instance is stopping, which loops
 * that take work (the relays, the consumer) ask between batches. The stop begins with SIGTERM, before
 * the requests drain, so that a stopping instance takes no new work; at the app's stop proper it takes
 * the write side, so it waits until every run has ended.
 */
@Singleton
public class WorkInProgress {

    private static final Logger LOG = Logger.getLogger(WorkInProgress.class);
    /** As long as the background threads' stop waits (see {@link BackgroundThreads}). */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final ReadWriteLock runs = new ReentrantReadWriteLock();
    private volatile boolean stopping;

    /** Whether a run may start; if so, it must {@link #end()}. */
    public boolean begin() {
        runs.readLock().lock();
        if (stopping) {
            runs.readLock().unlock();
            return false;
        }
        return true;
    }

    public void end() {
        runs.readLock().unlock();
    }

    /** The instance is stopping: work in progress ends at its next batch and hands back what it took but did not start. */
    public boolean stopping() {
        return stopping;
    }

    /** SIGTERM: no new work starts; the requests in flight still finish, and the runs in progress end on their own. */
    void beginStopping(@Observes ShutdownDelayInitiatedEvent signal) {
        stopping = true;
    }

    /** At the app's stop, before the other observers release what they hold and the database and Redis clients close. */
    void stop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent shutdown) {
        stop(STOP_WAIT);
    }

    /** No run starts after this; waits this long for those in progress, then lets the app stop anyway. */
    public void stop(Duration wait) {
        stopping = true;
        try {
            if (runs.writeLock().tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                runs.writeLock().unlock();
            } else {
                LOG.warnf("Scheduled work still ran %s after the stop began; the app stops without it", wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
