package io.orderflow.login;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.MeterRegistry;
import io.orderflow.shared.Hashing;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.redis.RedisScript;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Failed sign-ins counted in Redis per user name and per client address, so every instance sees the
 * same counts; each counter expires with its window. When Redis fails, sign-ins go on unthrottled
 * (counted in {@code orders_login_throttle_unavailable_total}): refusing them would turn a Redis
 * outage into nobody, staff included, being able to sign in, while the password check still stands.
 */
@ApplicationScoped
public class SignInFailures {

    private static final Logger LOG = Logger.getLogger(SignInFailures.class);
    private static final RedisScript CHECK = RedisScript.load("login-check");
    private static final RedisScript FAIL = RedisScript.load("login-fail");

    private final RedisDataSource redis;
    private final ReactiveRedisDataSource reactive;
    private final RedisKeys keys;
    private final LoginConfig config;
    private final MeterRegistry metrics;

    public SignInFailures(RedisDataSource redis, ReactiveRedisDataSource reactive, RedisKeys keys, LoginConfig config,
            MeterRegistry metrics) {
        this.redis = redis;
        this.reactive = reactive;
        this.keys = keys;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * The attempt, to be checked, or {@link SignInRefusedException} when the user or the address
     * reached its limit. Blocking. The two counters are read one after the other, holding one Redis
     * connection at a time: read at once, a thousand sign-ins would ask the pool for two thousand.
     */
    public SignInAttempt admit(String user, String address) {
        long userFailures = 0;
        try {
            Response byUser = CHECK.run(redis, List.of(userKey(user)), config.maxFailuresPerUser());
            refuseIfLimited(byUser, "user");
            Response byAddress = CHECK.run(redis, List.of(addressKey(address)), config.maxFailuresPerAddress());
            refuseIfLimited(byAddress, "address");
            userFailures = byUser.get(0).toLong();
        } catch (SignInRefusedException e) {
            throw e;
        } catch (RuntimeException e) {
            unavailable("check", e);
        }
        return new SignInAttempt(user, address, userFailures);
    }

    /**
     * Counts a wrong password (or unknown user) against both the user name and the address. Called on
     * the event loop, so it does not wait: the count is sent to Redis before the refusal is answered.
     * Attempts already in flight when the limit is reached are still checked, so a burst of parallel
     * guesses may pass the limit by as many as it runs at once.
     */
    public void failed(SignInAttempt attempt) {
        metrics.counter("orders.login.failures").increment();
        long window = config.window().toMillis();
        Uni.combine().all().unis(FAIL.run(reactive, List.of(userKey(attempt.user())), window),
                FAIL.run(reactive, List.of(addressKey(attempt.address())), window)).discardItems()
                .subscribe().with(done -> { }, e -> unavailable("count", e));
    }

    /**
     * A user who signed in starts afresh; the address keeps its count, or one account could clear it
     * for guesses at others. Without waiting, like {@link #failed}.
     */
    public void succeeded(SignInAttempt attempt) {
        if (attempt.userFailures() > 0) {
            reactive.key().del(userKey(attempt.user())).subscribe().with(deleted -> { }, e -> unavailable("clear", e));
        }
    }

    private void refuseIfLimited(Response answer, String by) {
        long retryAfterMillis = answer.get(1).toLong();
        if (retryAfterMillis > 0) {
            metrics.counter("orders.login.throttled", "by", by).increment();
            throw new SignInRefusedException(Duration.ofMillis(retryAfterMillis));
        }
    }

    private void unavailable(String step, Throwable e) {
        metrics.counter("orders.login.throttle.unavailable", "step", step).increment();
        LOG.warnf("Sign-in throttling skipped (%s): Redis failed: %s", step, e.toString());
    }

    private String userKey(String user) {
        return keys.ofPrincipal(user, "login-failures");
    }

    private String addressKey(String address) {
        return keys.of("a:" + Hashing.sha256Hex(address).substring(0, 16), "login-failures");
    }
}
