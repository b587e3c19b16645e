package io.orderflow.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** The stop of the app waits for scheduled work in progress, and no scheduled work starts after it. */
@FastTest
class WorkInProgressTest {

    private final WorkInProgress work = new WorkInProgress();

    @Test
    void theStopWaitsForTheRunsInProgressThenNoneStarts() throws Exception {
        assertThat(work.begin()).isTrue();
        assertThat(work.begin()).as("runs may overlap").isTrue();
        AtomicReference<Thread> stopping = new AtomicReference<>();
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
            stopping.set(Thread.currentThread());
            work.stop(Duration.ofSeconds(30));
        });

        await().atMost(Duration.ofSeconds(5)).until(() -> stopping.get() != null && stopping.get().getState() == Thread.State.TIMED_WAITING);
        work.end();
        assertThat(stopped).as("one run still in progress").isNotDone();
        work.end();

        stopped.get(5, TimeUnit.SECONDS);
        assertThat(work.begin()).as("a run after the stop").isFalse();
    }

    @Test
    void aRunThatOutlastsTheWaitDoesNotHoldTheStopUp() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Joined below, so that what fails in the run fails the test.
        CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
            assertThat(work.begin()).isTrue();
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                work.end();
            }
        });
        assertThat(running.await(5, TimeUnit.SECONDS)).as("the run began").isTrue();

        CompletableFuture.runAsync(() -> work.stop(Duration.ofMillis(50))).get(5, TimeUnit.SECONDS);

        assertThat(work.begin()).isFalse();
        release.countDown();
        run.get(5, TimeUnit.SECONDS);
    }
}
