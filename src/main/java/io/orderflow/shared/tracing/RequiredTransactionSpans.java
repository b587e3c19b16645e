package io.orderflow.shared.tracing;

import jakarta.annotation.Priority;
import jakarta.interceptor.Interceptor;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;
import jakarta.transaction.Transactional;

import io.opentelemetry.api.trace.Tracer;

/** {@link TransactionSpans} of {@code @Transactional} (REQUIRED): a transaction begins only where none is active. */
@Transactional(Transactional.TxType.REQUIRED)
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 199)
class RequiredTransactionSpans extends TransactionSpans {

    RequiredTransactionSpans(Tracer tracer, TransactionManager transactions) {
        super(tracer, transactions);
    }

    @Override
    boolean begins() throws SystemException {
        return noneActive();
    }
}
