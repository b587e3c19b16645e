package io.orderflow.events;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@link OrderTraceChecks} with the order events on Redis Streams: the traceparent travels as a field of the stream entry. */
@QuarkusTest
@WithTestResource(TestServers.class)
class OrderTracingTest extends OrderTraceChecks {
}
