package io.orderflow.shared.tracing;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.TraceIds.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.orderflow.support.LoopbackClient;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A client's traceparent is a request's parent only from a trusted source (the test profile trusts
 * 127.0.0.1 and records no trace of its own): from another address a sampled traceparent neither joins
 * the request to that trace nor has it recorded.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class TraceParentTrustTest {

    @Inject
    InMemorySpanExporter spans;

    @TestHTTPResource("/")
    URL app;

    @Test
    void aSampledTraceParentFromAnUntrustedAddressIsIgnored() throws IOException {
        String untrustedTrace = hex(16);
        LoopbackClient.Answer answer = LoopbackClient.get("127.0.0.2", app.getHost(), app.getPort(), "/orders", "alice", "alice",
                Map.of("traceparent", "00-" + untrustedTrace + "-" + hex(8) + "-01", "baggage", "tenant=forged"));
        assertThat(answer.status()).isEqualTo(200);

        // A trusted request after it: once its span is exported, any span of the request before it would be too.
        String trustedTrace = hex(16);
        as("alice").header("traceparent", "00-" + trustedTrace + "-" + hex(8) + "-01").get("/orders").then().statusCode(200);
        List<SpanData> exported = await().atMost(Duration.ofSeconds(10)).until(spans::getFinishedSpanItems,
                finished -> finished.stream().anyMatch(span -> span.getTraceId().equals(trustedTrace) && span.getKind() == SpanKind.SERVER));

        assertThat(exported).as("spans of the untrusted client's trace").noneMatch(span -> span.getTraceId().equals(untrustedTrace));
        System.out.println("[attack] traceparent from 127.0.0.2: 0 spans recorded in its trace; from 127.0.0.1: "
                + exported.stream().filter(span -> span.getTraceId().equals(trustedTrace)).count() + " spans recorded in its trace");
    }
}
