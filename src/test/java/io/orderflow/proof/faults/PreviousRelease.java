package io.orderflow.proof.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The release before this one, packaged from its commit (recorded in ops/upgrade/previous-release): its
 * sources are taken out of git into target/previous-release/COMMIT and built there offline, once; later runs
 * reuse the jar while the commit stays the same.
 */
public final class PreviousRelease {

    static final Path RECORD = Path.of("ops/upgrade/previous-release");
    /**
     * What its pods must be given to start on this release's schema: by default its Flyway refuses a schema that has
     * migrations it does not know ("applied migration not resolved locally"), so a pod restarted mid-rollout would crash.
     */
    static final Map<String, String> UPGRADE_SETTINGS = Map.of("QUARKUS_FLYWAY_IGNORE_MIGRATION_PATTERNS", "*:future");
    private static final Path BUILDS = Path.of("target/previous-release");
    /** A build from nothing but the local repository takes a few minutes on two cores; this is far past it. */
    private static final Duration BUILD_LIMIT = Duration.ofMinutes(15);
    private static final Duration GIT_LIMIT = Duration.ofMinutes(1);

    private PreviousRelease() {
    }

    /** Its commit: the one line of the record that is not a comment. */
    public static String commit() {
        try {
            List<String> lines = Files.readAllLines(RECORD).stream().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
            if (lines.size() != 1 || !lines.get(0).matches("[0-9a-f]{40}")) {
                throw new IllegalStateException(RECORD + " must name one commit by its 40 hex digits, not " + lines);
            }
            return lines.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Its packaged jar, built now unless a run before built it from the same commit. */
    static Path jar() {
        String commit = commit();
        Path sources = BUILDS.resolve(commit).toAbsolutePath();
        Path jar = sources.resolve("target/quarkus-app/quarkus-run.jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        try {
            Files.createDirectories(sources);
            Path archive = BUILDS.resolve(commit + ".tar").toAbsolutePath();
            Processes.run(GIT_LIMIT, "git", "archive", "--format=tar", "-o", archive.toString(), commit);
            Processes.run(GIT_LIMIT, "tar", "-xf", archive.toString(), "-C", sources.toString());
            Files.delete(archive);
            // Offline: its dependencies are this build's, or older ones the local repository kept. Its tests ran when it was
            // released, so neither they nor what only they need (the API client generated for them, axe-core from npm) are built.
            Processes.run(BUILD_LIMIT, "bash", "-c", "cd \"$0\" && ./mvnw -B -q -o package -Dmaven.test.skip=true -Dcodegen.skip=true"
                    + " -P '!accessibility-checker'", sources.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The previous release (" + commit + ") built no " + jar);
        }
        return jar;
    }
}
