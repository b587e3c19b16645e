package io.orderflow.support;

import java.util.concurrent.TimeUnit;

/** Ending the processes a test started (servers, instances): only those, and only by their handle. */
public final class ChildProcesses {

    private ChildProcesses() {
    }

    /** Waits for a signalled process to exit, killing it (-9) should it linger past 30 s. */
    public static void awaitExit(Process process) {
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
