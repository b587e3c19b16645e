package io.orderflow.shared.redis;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.runtime.StartupEvent;

/**
 * Creates both Redis data sources on the main thread before any other start-up work runs. Quarkus keeps
 * them in a plain HashMap filled by computeIfAbsent, and a thread started at start-up (a scheduler's, the
 * deadline thread) creating one while the main thread creates the other failed the start with a
 * ConcurrentModificationException.
 */
@ApplicationScoped
class RedisDataSourcesFirst {

    void create(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent start, ReactiveRedisDataSource reactive,
            RedisDataSource blocking) {
        // Any call on the client proxies creates the beans behind them; neither call talks to Redis.
        reactive.getRedis();
        blocking.getReactive();
    }
}
