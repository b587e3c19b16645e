package io.orderflow.proof.faults;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How long and how hard the proof runs. The short version (the default, run by every {@code verify})
 * injects each fault once; the long version ({@code -Dproof.mode=long}, ops/proof/run.sh) injects each
 * fault several times under more traffic.
 *
 * @param mode             short or long
 * @param journeysBetween  shopping journeys completed before the first fault, between faults and after the last
 * @param faultsPerScenario how many times each fault scenario injects its fault
 * @param shoppers         concurrent shoppers of the fault scenarios (each sends up to 3 requests at once)
 * @param redisPauseMillis how long CLIENT PAUSE holds Redis: past the token lease of {@link Deployment}
 */
record ProofSettings(String mode, int journeysBetween, int faultsPerScenario, int shoppers, long redisPauseMillis,
        Path jar, Path results, Path workDir) {

    /** How long one client keeps retrying one request before it gives up (it then counts as unconverged). */
    static final Duration RETRY_BUDGET = Duration.ofSeconds(120);

    /** The settings of a proof ("faults", "failover"), which works and writes its figures in target/proof-NAME unless told otherwise. */
    static ProofSettings fromSystemProperties(String proof) {
        boolean longMode = "long".equals(System.getProperty("proof.mode", "short"));
        Path jar = Path.of(System.getProperty("proof.jar", "target/quarkus-app/quarkus-run.jar"));
        Path results = Path.of(System.getProperty("proof.results", "target/proof-" + proof + "/figures.txt"));
        Path workDir = Path.of(System.getProperty("proof.work", "target/proof-" + proof));
        return longMode ? new ProofSettings("long", 150, 3, 8, 12_000, jar, results, workDir)
                : new ProofSettings("short", 15, 1, 6, 8_000, jar, results, workDir);
    }
}
