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
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Failed sign-ins counted in Redis per (user, client address), per user and per address, so every
 * instance sees the same counts; each counter expires with its window. The user's two counters share
 * the user's slot, the address's its own. When Redis fails, sign-ins go on unthrottled (counted in
 * {@code orders_login_throttle_unavailable_total}): refusing them would turn a Redis outage into
 * nobody, staff included, being able to sign in, while the password check still stands.
 */
@ApplicationScoped
class SignInFailures {

    private static final Logger LOG = Logger.getLogger(SignInFailures.class);
    private static final RedisScript CHECK = RedisScript.load("login-check");
    private static final RedisScript FAIL = RedisScript.load("login-fail");
    /** The first delay of a user being guessed at; each further failure doubles it, up to the configured cap. */
    private static final Duration FIRST_DELAY = Duration.ofMillis(100);

    private final ReactiveRedisDataSource reactive;
    private final SignInClearances clearances;
    private final RedisKeys keys;
    private final LoginConfig config;
    private final MeterRegistry metrics;

    public SignInFailures(ReactiveRedisDataSource reactive, SignInClearances clearances, RedisKeys keys, LoginConfig config,
            MeterRegistry metrics) {
        this.reactive = reactive;
        this.clearances = clearances;
        this.keys = keys;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * The attempt, to be checked, or {@link SignInRefusedException} when this address reached its limit
     * for this user, or reached its own limit and has failed for this user before. An address that has
     * not failed for the user is never refused. Without blocking; the address's counter is read only
     * when the address has failed for the user, so most sign-ins cost one Redis call.
     */
    public Uni<SignInAttempt> admit(String user, String address) {
        long clearance = clearances.stamp(user, address);
        return CHECK.run(reactive, List.of(pairKey(user, address), userKey(user))).chain(byUser -> {
            long pairFailures = byUser.get(0).toLong();
            long pairLeft = byUser.get(1).toLong();
            long userFailures = byUser.get(2).toLong();
            if (pairFailures >= config.maxFailuresPerUserAndAddress()) {
                return Uni.createFrom().failure(refused("user-and-address", pairLeft));
            }
            if (pairFailures == 0) {
                return Uni.createFrom().item(new SignInAttempt(user, address, false, delay(userFailures), clearance));
            }
            return CHECK.run(reactive, List.of(addressKey(address))).map(byAddress -> {
                if (byAddress.get(0).toLong() >= config.maxFailuresPerAddress()) {
                    throw refused("address", Math.min(pairLeft, byAddress.get(1).toLong()));
                }
                return new SignInAttempt(user, address, true, delay(userFailures), clearance);
            });
        }).ifNoItem().after(RedisScript.TIMEOUT).fail()
                .onFailure(e -> !(e instanceof SignInRefusedException)).recoverWithItem(e -> {
                    unavailable("check", e);
                    return SignInAttempt.unchecked(user, address);
                });
    }

    /**
     * Counts a wrong password (or unknown user) against the user at this address, the user and the
     * address. Called on the event loop, so it does not wait: the counts are sent to Redis before the
     * failure is answered. Attempts already in flight when a limit is reached are still checked, so a
     * burst of parallel guesses may pass it by as many as it runs at once. The pair loses its way
     * around Redis on every instance ({@link SignInClearances}) before the failure is answered here.
     */
    public void failed(SignInAttempt attempt) {
        clearances.failed(attempt.user(), attempt.address()).subscribe().with(done -> { }, e -> unavailable("announce", e));
        count(attempt).subscribe().with(done -> { }, e -> unavailable("count", e));
    }

    /** The counting alone, as every instance does it. */
    Uni<Void> count(SignInAttempt attempt) {
        metrics.counter("orders.login.failures").increment();
        long window = config.window().toMillis();
        return Uni.combine().all().unis(
                FAIL.run(reactive, List.of(pairKey(attempt.user(), attempt.address()), userKey(attempt.user())), window),
                FAIL.run(reactive, List.of(addressKey(attempt.address())), window)).discardItems();
    }

    /**
     * A user who signed in from an address starts afresh there. The user's count stays, or its owner
     * signing in would wipe the slow-down of a guesser elsewhere; so does the address's, or one account
     * could clear it for guesses at others. Without waiting, like {@link #failed}.
     */
    public void succeeded(SignInAttempt attempt) {
        clearances.clear(attempt);
        if (attempt.failedBefore()) {
            reactive.key().del(pairKey(attempt.user(), attempt.address())).subscribe().with(deleted -> { }, e -> unavailable("clear", e));
        }
    }

    /** Nothing below the threshold; then 100 ms, doubled with each further failure, up to the cap. */
    private Duration delay(long userFailures) {
        if (userFailures < config.slowDownAfter()) {
            return Duration.ZERO;
        }
        metrics.counter("orders.login.slowed").increment();
        long doublings = Math.min(userFailures - config.slowDownAfter(), 20);
        Duration delay = FIRST_DELAY.multipliedBy(1L << doublings);
        return delay.compareTo(config.maxDelay()) < 0 ? delay : config.maxDelay();
    }

    private SignInRefusedException refused(String by, long retryAfterMillis) {
        metrics.counter("orders.login.throttled", "by", by).increment();
        return new SignInRefusedException(Duration.ofMillis(retryAfterMillis));
    }

    private void unavailable(String step, Throwable e) {
        metrics.counter("orders.login.throttle.unavailable", "step", step).increment();
        LOG.warnf("Sign-in throttling skipped (%s): Redis failed: %s", step, e.toString());
    }

    private String userKey(String user) {
        return keys.ofPrincipal(user, "login-failures");
    }

    /** In the user's slot, so that one script reads (and counts) both. */
    private String pairKey(String user, String address) {
        return keys.ofPrincipal(user, "login-failures:" + addressTag(address));
    }

    private String addressKey(String address) {
        return keys.of(addressTag(address), "login-failures");
    }

    private static String addressTag(String address) {
        return "a:" + Hashing.sha256Hex(address).substring(0, 16);
    }
}
