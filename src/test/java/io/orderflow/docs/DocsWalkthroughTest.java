package io.orderflow.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The curl walkthroughs of README.md ("Try it") and docs/api.md run as written, one bash session from the first
 * block to the last (so TOKEN and ID carry over), against this service instead of localhost:8080. Every command
 * must succeed and no call may fail to connect or answer 5xx; the answers the guides expect to be refusals (402,
 * 409, 422 ...) are refusals, not failures.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class DocsWalkthroughTest {

    private static final Pattern BASH_BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern CURL = Pattern.compile("(?m)^(?!\\s*#).*?\\bcurl\\s");
    // Each call logs its status on descriptor 3; a call that cannot connect, or is answered 5xx, stops the walkthrough.
    private static final String PRELUDE = """
            set -euo pipefail
            shopt -s inherit_errexit
            curl() {
              local answer status
              answer=$(command curl -w '\\n%{http_code}' "$@")
              status=${answer##*$'\\n'}
              printf '%s\\n' "${answer%$'\\n'*}"
              echo "$status $*" >&3
              if [ "$status" = 000 ] || [ "$status" -ge 500 ]; then echo "answered $status: curl $*" >&2; return 1; fi
            }
            """;

    @TestHTTPResource("/")
    URL site;

    @Test
    void theReadmeAndTheApiGuideRunAsWritten() throws Exception {
        String walkthrough = blocks(section(Files.readString(Path.of("README.md")), "## Try it")) + blocks(Files.readString(Path.of("docs", "api.md")));
        int written = (int) CURL.matcher(walkthrough).results().count();
        assertThat(written).as("curl commands in the guides").isGreaterThan(20);

        Path script = Files.createTempFile("walkthrough", ".sh");
        Path calls = Files.createTempFile("walkthrough", ".calls");
        Path output = Files.createTempFile("walkthrough", ".out");
        Files.writeString(script, PRELUDE + "exec 3>" + calls + "\n" + walkthrough.replace("localhost:8080", site.getHost() + ":" + site.getPort()));
        Process bash = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(bash.waitFor(120, TimeUnit.SECONDS)).as("the walkthrough ends").isTrue();

        List<String> answered = Files.readAllLines(calls, StandardCharsets.UTF_8);
        assertThat(bash.exitValue()).as("the walkthrough's exit status; its output:%n%s", Files.readString(output)).isZero();
        assertThat(answered).as("calls made").hasSizeGreaterThanOrEqualTo(written);
        assertThat(answered).as("answers").noneMatch(line -> line.startsWith("5") || line.startsWith("000"));
        assertThat(answered).as("orders placed, paid and shipped as written")
                .anyMatch(line -> line.startsWith("201 -si -u alice:alice -X POST ") && line.contains("/orders -H"))
                .anyMatch(line -> line.startsWith("200 -s -u alice:alice -X POST -H Idempotency-Key: pay-") && line.endsWith("/pay"))
                .anyMatch(line -> line.startsWith("200 -s -u ops:ops -X POST ") && line.endsWith("/ship"));
    }

    /** The part of a Markdown file from a heading to the next heading of its level. */
    private static String section(String markdown, String heading) {
        int start = markdown.indexOf(heading + "\n");
        assertThat(start).as(heading).isNotNegative();
        int end = markdown.indexOf("\n## ", start + heading.length());
        return end < 0 ? markdown.substring(start) : markdown.substring(start, end);
    }

    private static String blocks(String markdown) throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher block = BASH_BLOCK.matcher(markdown);
        while (block.find()) {
            blocks.add(block.group(1));
        }
        return String.join("\n", blocks);
    }
}
