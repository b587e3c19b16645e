package io.orderflow.shared;

import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

/** Outside any transaction of the method, so that the transaction has ended when the stop goes on. */
@StopsWithTheApp
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE)
class StopsWithTheAppInterceptor {

    private final WorkInProgress work;

    StopsWithTheAppInterceptor(WorkInProgress work) {
        this.work = work;
    }

    @AroundInvoke
    Object run(InvocationContext invocation) throws Exception {
        if (!work.begin()) {
            return null;
        }
        try {
            return invocation.proceed();
        } finally {
            work.end();
        }
    }
}
