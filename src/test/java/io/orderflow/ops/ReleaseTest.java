package io.orderflow.ops;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The release the service says it is: {@code /q/info} names the version CHANGELOG.md's newest entry names, to staff and
 * the monitoring system only, and the previous release is a commit this one descends from.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ReleaseTest {

    private static final Pattern NEWEST_RELEASE = Pattern.compile("^## (\\d+\\.\\d+\\.\\d+) ", Pattern.MULTILINE);
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}");

    @Test
    void theServiceNamesTheNewestReleaseOfTheChangelog() throws IOException {
        Matcher newest = NEWEST_RELEASE.matcher(Files.readString(Path.of("CHANGELOG.md")));
        assertThat(newest.find()).as("a release heading in CHANGELOG.md").isTrue();
        as("ops").get("/q/info").then().statusCode(200).body("build.version", equalTo(newest.group(1)))
                .body("java.version", notNullValue());
    }

    @Test
    void onlyStaffAndTheMonitoringSystemReadIt() {
        request().get("/q/info").then().statusCode(401);
        as("alice").get("/q/info").then().statusCode(403);
    }

    @Test
    void thePreviousReleaseIsACommitThisOneDescendsFrom() throws IOException, InterruptedException {
        List<String> commits = Files.readAllLines(Path.of("ops", "upgrade", "previous-release")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        assertThat(commits).singleElement().matches(commit -> COMMIT.matcher(commit).matches(), "a whole commit id");
        Process ancestor = new ProcessBuilder("git", "merge-base", "--is-ancestor", commits.get(0), "HEAD").inheritIO().start();
        assertThat(ancestor.waitFor()).as("git merge-base --is-ancestor %s HEAD", commits.get(0)).isZero();
    }
}
