package io.orderflow.shared.tracing;

import jakarta.annotation.Priority;
import jakarta.interceptor.Interceptor;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.Transactional;

import io.opentelemetry.api.trace.Tracer;

/** {@link TransactionSpans} of {@code @Transactional(REQUIRES_NEW)}: a transaction always begins. */
@Transactional(Transactional.TxType.REQUIRES_NEW)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 199)
class NewTransactionSpans extends TransactionSpans {

    NewTransactionSpans(Tracer tracer, TransactionManager transactions) {
        super(tracer, transactions);
    }

    @Override
    boolean begins() {
        return true;
    }
}
