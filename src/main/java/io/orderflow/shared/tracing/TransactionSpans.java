package io.orderflow.shared.tracing;

import java.lang.reflect.Method;

import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.InvocationContext;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.TransactionManager;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;

/**
 * A span for each database transaction that a {@code @Transactional} method begins, from its start to its
 * commit or rollback, with the transaction's statements under it. Outside the transaction interceptor
 * (its priority is one lower), so the commit is inside the span. Only in a trace that is recorded: with no
 * collector, or in a background loop that no request started, it costs one look at the current span.
 */
abstract class TransactionSpans {

    static final String SPAN = "transaction";

    private final Tracer tracer;
    private final TransactionManager transactions;

    TransactionSpans(Tracer tracer, TransactionManager transactions) {
        this.tracer = tracer;
        this.transactions = transactions;
    }

    /** Whether this call begins a transaction of its own. */
    abstract boolean begins() throws SystemException;

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        if (!Span.current().getSpanContext().isSampled() || !begins()) {
            return invocation.proceed();
        }
        Method method = invocation.getMethod();
        Span span = tracer.spanBuilder(SPAN).setAttribute("code.function.name", method.getDeclaringClass().getSimpleName() + "." + method.getName())
                .startSpan();
        try (Scope scope = span.makeCurrent()) {
            return invocation.proceed();
        } catch (Exception | Error e) {
            span.recordException(e).setStatus(StatusCode.ERROR);
            throw e;
        } finally {
            span.end();
        }
    }

    boolean noneActive() throws SystemException {
        return transactions.getStatus() == Status.STATUS_NO_TRANSACTION;
    }
}
