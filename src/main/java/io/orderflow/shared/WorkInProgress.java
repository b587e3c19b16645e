package io.orderflow.shared;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;

/**
 * The scheduled work in progress ({@link StopsWithTheApp}): any number of runs at once, each holding
 * the read side of a lock; the stop takes the write side, so it waits until every run has ended.
 */
@Singleton
class WorkInProgress {

    private static final Logger LOG = Logger.getLogger(WorkInProgress.class);
    /** As long as the background threads' stop waits (see {@link BackgroundThreads}). */
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private final ReadWriteLock runs = new ReentrantReadWriteLock();
    private volatile boolean stopped;

    /** Whether a run may start; if so, it must {@link #end()}. */
    public boolean begin() {
        runs.readLock().lock();
        if (stopped) {
            runs.readLock().unlock();
            return false;
        }
        return true;
    }

    public void end() {
        runs.readLock().unlock();
    }

    /** At shutdown, before the database and Redis clients close. */
    void stop(@Observes ShutdownEvent shutdown) {
        stop(STOP_WAIT);
    }

    /** No run starts after this; waits this long for those in progress, then lets the app stop anyway. */
    public void stop(Duration wait) {
        stopped = true;
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
