package io.orderflow.outbox;

import java.time.Instant;

/** A message of this lane was written to the outbox, due at this time; observed once its transaction commits. */
record MessageQueued(Lane lane, Instant due) {
}
