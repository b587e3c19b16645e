package io.orderflow.events;

import io.orderflow.support.PrivateKafka;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** {@link OrderTraceChecks} with the order events on Kafka: the traceparent travels as a record header. */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(PrivateKafka.class)
class KafkaOrderTracingTest extends OrderTraceChecks {
}
