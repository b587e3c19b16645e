package io.orderflow.login;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.orderflow.shared.Hashing;
import io.orderflow.shared.metrics.Counters;
import io.orderflow.shared.redis.RedisKeys;
import io.orderflow.shared.redis.RedisScript;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * Sign-in attempts counted in Redis per (user, client address), per address and per user, so every
 * instance sees the same counts; each counter expires with its window. An attempt is counted before its
 * password is checked, as a reservation that a right password gives back and a wrong one keeps: a burst
 * of guesses in flight at once gets no more checks than the limits allow. The pair's counter shares the
 * address's slot, so that one script decides a refusal from both; the user's counter (which only slows
 * down) has its own. When Redis fails, a sign-in is refused with 503 and Retry-After rather than checked
 * unthrottled (counted in {@code orders_login_throttle_unavailable_total}): guessing is never cheaper
 * while Redis is unwell ({@link SignInThrottle} still lets a sign-in known good from its address in).
 */
@Startup
@ApplicationScoped
class SignInFailures {

    private static final Logger LOG = Logger.getLogger(SignInFailures.class);
    private static final RedisScript RESERVE = RedisScript.load("login-reserve");
    private static final RedisScript COUNT = RedisScript.load("login-count");
    private static final RedisScript RELEASE = RedisScript.load("login-release");
    private static final RedisScript FAILED = RedisScript.load("login-failed");
    /**
     * What refused a sign-in, in the order of the codes of login-reserve.lua's answer's third element (1 for the first):
     * {@code orders_login_throttled_total{by}}.
     */
    private enum ThrottledBy {
        USER_AND_ADDRESS, ADDRESS, ADDRESS_RATE, CHECKS_IN_FLIGHT;

        static ThrottledBy ofCode(int code) {
            return values()[code - 1];
        }
    }

    /** The step at which Redis failed: {@code orders_login_throttle_unavailable_total{step}}. */
    private enum Step {
        CHECK, COUNT, ANNOUNCE, RELEASE
    }

    /**
     * Longer than any password check takes (its slow-down, its hash, its user-store read): an attempt still in
     * flight after it is one whose instance died, and its reservation counts as the failure it may have been.
     */
    static final Duration LONGEST_CHECK = Duration.ofSeconds(30);
    /** The first pause of a sign-in waiting for the checks in flight from its address; doubled, with jitter, up to the next. */
    private static final Duration FIRST_WAIT = Duration.ofMillis(20);
    private static final Duration LONGEST_WAIT = Duration.ofMillis(200);
    /** The first delay of a user being guessed at; each further failure doubles it, up to the configured cap. */
    private static final Duration FIRST_DELAY = Duration.ofMillis(100);

    private final ReactiveRedisDataSource reactive;
    private final SignInClearances clearances;
    private final RedisKeys keys;
    private final LoginConfig config;
    private final Counter failures;
    private final Counter slowed;
    private final Counters<ThrottledBy> throttled;
    private final Counters<Step> unavailable;

    public SignInFailures(ReactiveRedisDataSource reactive, SignInClearances clearances, RedisKeys keys, LoginConfig config,
            MeterRegistry metrics) {
        this.reactive = reactive;
        this.clearances = clearances;
        this.keys = keys;
        this.config = config;
        this.failures = Counters.single(metrics, "orders.login.failures", "Sign-ins with a wrong password or an unknown user");
        this.slowed = Counters.single(metrics, "orders.login.slowed", "Password checks slowed down for a user being guessed at");
        this.throttled = Counters.of(metrics, "orders.login.throttled", "Sign-ins refused before their password was checked, by what refused them",
                Tags.empty(), "by", ThrottledBy.class);
        this.unavailable = Counters.of(metrics, "orders.login.throttle.unavailable", "Redis failures met by the sign-in throttle, by step",
                Tags.empty(), "step", Step.class);
    }

    /**
     * The attempt, reserved and to be checked; or {@link SignInRefusedException} when this address reached
     * its limit for this user, or reached its own limit and has failed for this user before, or reached its
     * own limit and used this second's checks for names it has not failed for. When the checks in flight
     * from this address alone fill a limit (a burst of the right password, an office signing in at nine),
     * it asks again as they end, for up to {@link LoginConfig#waitForChecksInFlight()}, and is refused
     * with Retry-After 1 only after that. Without blocking: one Redis call per slot, the user's only for
     * an attempt the address's reserved.
     */
    public Uni<SignInAttempt> admit(String user, String address) {
        long clearance = clearances.stamp(user, address);
        String id = UUID.randomUUID().toString();
        return Uni.createFrom().deferred(() -> reserve(user, address, id, config.maxFailuresPerUserAndAddress(), config.maxFailuresPerAddress(),
                config.checksPerSecondPastAddressLimit()).map(this::reservedOrRefused))
                .onFailure(ChecksInFlightException.class).retry().withBackOff(FIRST_WAIT, LONGEST_WAIT).withJitter(0.5)
                .expireIn(config.waitForChecksInFlight().toMillis())
                // Mutiny ends the waiting with its own exception, the last failure its cause.
                .onFailure(ChecksInFlightException::endedWaiting).transform(waited -> refused(ThrottledBy.CHECKS_IN_FLIGHT, ChecksInFlightException.RETRY_AFTER_MILLIS))
                .chain(pairFailures -> {
                    boolean failedBefore = pairFailures > 0;
                    return COUNT.run(reactive, List.of(userKey(user)), config.window().toMillis())
                            .map(attempts -> new SignInAttempt(user, address, id, failedBefore, delay(attempts.toLong() - 1), clearance))
                            .onFailure().call(e -> release(user, address, id, failedBefore, false));
                })
                .onFailure(e -> !(e instanceof SignInRefusedException)).transform(e -> {
                    unavailable(Step.CHECK, e);
                    return new SignInThrottleUnavailableException();
                });
    }

    /**
     * A wrong password (or unknown user): its reservation stays counted. Called on the event loop, so it
     * does not wait. The pair loses its way around Redis on every instance ({@link SignInClearances})
     * before the failure is answered here.
     */
    public void failed(SignInAttempt attempt) {
        failures.increment();
        FAILED.run(reactive, inFlightKeys(attempt.user(), attempt.address()), attempt.id())
                .subscribe().with(done -> { }, e -> unavailable(Step.COUNT, e));
        clearances.failed(attempt.user(), attempt.address()).subscribe().with(done -> { }, e -> unavailable(Step.ANNOUNCE, e));
    }

    /** An attempt whose password could not be checked (the user store failed): it gives its reservation back. */
    public void notChecked(SignInAttempt attempt) {
        release(attempt.user(), attempt.address(), attempt.id(), false, true).subscribe().with(done -> { }, e -> unavailable(Step.RELEASE, e));
    }

    /**
     * A user who signed in from an address gives the attempt back, and starts afresh there. The user's
     * count stays, or its owner signing in would wipe the slow-down of a guesser elsewhere; so does the
     * address's, or one account could clear it for guesses at others. Without waiting, like {@link #failed}.
     */
    public void succeeded(SignInAttempt attempt) {
        clearances.clear(attempt);
        release(attempt.user(), attempt.address(), attempt.id(), attempt.failedBefore(), true).subscribe().with(done -> { }, e -> unavailable(Step.RELEASE, e));
    }

    /** A wrong password counted as an instance counts it, reservation and all: what another instance's failure leaves in Redis. */
    Uni<Void> count(String user, String address) {
        String id = UUID.randomUUID().toString();
        return reserve(user, address, id, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE)
                .chain(() -> FAILED.run(reactive, inFlightKeys(user, address), id))
                .chain(() -> COUNT.run(reactive, List.of(userKey(user)), config.window().toMillis())).replaceWithVoid();
    }

    /** The reservation on the pair's and the address's counters, within these limits (see login-reserve.lua for its answer). */
    private Uni<Response> reserve(String user, String address, String id, int perUserAndAddress, int perAddress, int checksPerSecondPastLimit) {
        String pair = pairKey(user, address);
        String byAddress = addressKey(address);
        return RESERVE.run(reactive, List.of(pair, byAddress, addressRateKey(address), inFlightKey(pair), inFlightKey(byAddress)),
                config.window().toMillis(), perUserAndAddress, perAddress, checksPerSecondPastLimit, id, LONGEST_CHECK.toMillis());
    }

    /** The pair's failures before this attempt, once reserved; a refusal, or checks in flight to wait for, otherwise. */
    private long reservedOrRefused(Response reserved) {
        if (reserved.get(0).toInteger() == 0) {
            return reserved.get(1).toLong();
        }
        ThrottledBy by = ThrottledBy.ofCode(reserved.get(2).toInteger());
        if (by == ThrottledBy.CHECKS_IN_FLIGHT) {
            throw new ChecksInFlightException();
        }
        throw refused(by, reserved.get(1).toLong());
    }

    /** Gives an attempt's reservations back: on the pair and the address (the pair afresh if asked), and on the user when it was counted. */
    private Uni<Void> release(String user, String address, String id, boolean pairAfresh, boolean userCounted) {
        String pair = pairKey(user, address);
        String byAddress = addressKey(address);
        Uni<Response> released = RELEASE.run(reactive, List.of(pair, inFlightKey(pair), byAddress, inFlightKey(byAddress)), pairAfresh ? "1" : "0", id);
        if (!userCounted) {
            return released.replaceWithVoid();
        }
        return Uni.combine().all().unis(released, RELEASE.run(reactive, List.of(userKey(user)), "0", id)).discardItems();
    }

    /** The sets of the pair's and the address's checks in flight. */
    List<String> inFlightKeys(String user, String address) {
        return List.of(inFlightKey(pairKey(user, address)), inFlightKey(addressKey(address)));
    }

    /** A counter's attempts in flight, in its slot. */
    private static String inFlightKey(String counter) {
        return counter + ":in-flight";
    }

    /** The checks in flight from an address alone fill a limit; they end within moments. */
    private static final class ChecksInFlightException extends RuntimeException {

        /** What a sign-in refused after waiting is told: they will have ended by then. */
        static final long RETRY_AFTER_MILLIS = 1000;

        ChecksInFlightException() {
            super(null, null, false, false);
        }

        static boolean endedWaiting(Throwable failure) {
            return failure instanceof ChecksInFlightException || failure.getCause() instanceof ChecksInFlightException;
        }
    }

    /** Nothing below the threshold; then 100 ms, doubled with each further failure, up to the cap. */
    private Duration delay(long userFailures) {
        if (userFailures < config.slowDownAfter()) {
            return Duration.ZERO;
        }
        slowed.increment();
        long doublings = Math.min(userFailures - config.slowDownAfter(), 20);
        Duration delay = FIRST_DELAY.multipliedBy(1L << doublings);
        return delay.compareTo(config.maxDelay()) < 0 ? delay : config.maxDelay();
    }

    private SignInRefusedException refused(ThrottledBy by, long retryAfterMillis) {
        throttled.increment(by);
        return new SignInRefusedException(Duration.ofMillis(retryAfterMillis));
    }

    private void unavailable(Step step, Throwable e) {
        unavailable.increment(step);
        LOG.warnf("Sign-in throttle (%s): Redis failed, the sign-in is refused unless known good: %s", Counters.label(step), e.toString());
    }

    private String userKey(String user) {
        return keys.ofPrincipal(user, "login-failures");
    }

    /** In the address's slot, so that one script reserves on both. */
    private String pairKey(String user, String address) {
        return keys.of(addressTag(address), "login-failures:u:" + Hashing.sha256Hex(user).substring(0, 16));
    }

    private String addressKey(String address) {
        return keys.of(addressTag(address), "login-failures");
    }

    private String addressRateKey(String address) {
        return keys.of(addressTag(address), "login-failures:rate");
    }

    private static String addressTag(String address) {
        return "a:" + Hashing.sha256Hex(address).substring(0, 16);
    }
}
