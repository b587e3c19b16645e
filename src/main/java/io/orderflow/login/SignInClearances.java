package io.orderflow.login;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.orderflow.shared.redis.RedisKeys;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.pubsub.ReactivePubSubCommands;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;

/**
 * The (user, client address) pairs a sign-in needs no Redis round trip for: the throttle found no
 * failure of the user from that address, the sign-in succeeded, and no wrong password for the user
 * from that address has been counted since, by this instance or any other. Each instance announces
 * the failures it counts on a Redis channel, and every instance forgets the pair on hearing one.
 * <p>
 * So the throttle's promise holds without asking Redis: an address is refused for a user only after
 * failures, and the first of them closes this way on every instance, so a refused address never gets
 * in with the right password, nor learns which password is right. While the channel is not known to be
 * heard (before the subscription is confirmed, or after Redis dropped it) no pair skips Redis and nothing
 * is cleared; when it is heard again every pair is forgotten; and a pair cleared by a sign-in whose check
 * raced a failure is forgotten again (the stamps below).
 */
@ApplicationScoped
class SignInClearances {

    private static final Logger LOG = Logger.getLogger(SignInClearances.class);
    private static final int MAX_PAIRS = 10_000;
    private static final int STRIPES = 64;
    /** How soon a dropped subscription is tried again. */
    private static final Duration RESUBSCRIBE_AFTER = Duration.ofSeconds(1);

    private record Pair(String user, String address) {
    }

    private final Cache<Pair, Boolean> cleared;
    /** Bumped when a pair of the stripe is forgotten, and (all of them, through the generation) when the channel may have missed one. */
    private final AtomicLongArray forgotten = new AtomicLongArray(STRIPES);
    private final AtomicLong generation = new AtomicLong();
    private final ReactivePubSubCommands<String> pubsub;
    private final String channel;
    private final Vertx vertx;
    private final AtomicInteger subscriptions = new AtomicInteger();
    private volatile boolean heard;
    private volatile boolean stopped;
    private volatile ReactivePubSubCommands.ReactiveRedisSubscriber subscriber;

    public SignInClearances(ReactiveRedisDataSource redis, RedisKeys keys, LoginConfig config, Vertx vertx) {
        this.cleared = Caffeine.newBuilder().maximumSize(MAX_PAIRS).expireAfterWrite(config.window()).build();
        this.pubsub = redis.pubsub(String.class);
        this.channel = keys.of("login-failures", "announced");
        this.vertx = vertx;
    }

    void listen(@Observes StartupEvent start) {
        subscribe();
    }

    synchronized void stop(@Observes ShutdownEvent stop) {
        stopped = true;
        heard = false;
        ReactivePubSubCommands.ReactiveRedisSubscriber current = subscriber;
        if (current != null) {
            current.unsubscribe().subscribe().with(done -> { }, e -> { });
        }
    }

    /** Taken before the pair is checked in Redis; {@link #clear} keeps the pair only if it still matches. */
    long stamp(String user, String address) {
        return generation.get() + forgotten.get(stripe(new Pair(user, address)));
    }

    /** Whether a sign-in of the user from this address may skip the throttle's Redis check. */
    boolean isCleared(String user, String address) {
        return heard && wasCleared(user, address);
    }

    /**
     * Whether the pair was cleared, heard or not: while Redis cannot be asked at all, a password verified
     * lately from this very address is known good (nobody's failures can be counted meanwhile); every
     * pair is forgotten once the channel is heard again, as failures announced meanwhile went unheard.
     */
    boolean wasCleared(String user, String address) {
        return cleared.getIfPresent(new Pair(user, address)) != null;
    }

    /** A sign-in succeeded whose check found no failure: clears the pair, unless a failure was heard since the check. */
    void clear(SignInAttempt attempt) {
        if (!heard || attempt.failedBefore()) {
            return;
        }
        Pair pair = new Pair(attempt.user(), attempt.address());
        cleared.put(pair, Boolean.TRUE);
        // A failure forgotten between the check and the put bumped the stamp: the pair is dropped again.
        if (stamp(attempt.user(), attempt.address()) != attempt.clearance()) {
            cleared.invalidate(pair);
        }
    }

    /** A wrong password counted here: closes the pair here at once; the announcement closes it on every instance. */
    Uni<Void> failed(String user, String address) {
        forget(new Pair(user, address));
        return announce(user, address);
    }

    /** Tells every instance, this one included, to forget the pair. */
    Uni<Void> announce(String user, String address) {
        return pubsub.publish(channel, address + " " + user);
    }

    private void heard(String announcement) {
        int space = announcement.indexOf(' ');
        if (space > 0) {
            forget(new Pair(announcement.substring(space + 1), announcement.substring(0, space)));
        }
    }

    private void forget(Pair pair) {
        forgotten.incrementAndGet(stripe(pair));
        cleared.invalidate(pair);
    }


    private void subscribe() {
        if (stopped) {
            return;
        }
        // The connection's end and its error may both report one drop: only the first, of the latest subscription, counts.
        int current = subscriptions.incrementAndGet();
        Runnable dropped = () -> dropped(current);
        pubsub.subscribe(channel, this::heard, dropped, e -> dropped.run())
                .subscribe().with(confirmed -> confirmed(current, confirmed), e -> dropped.run());
    }

    private synchronized void confirmed(int current, ReactivePubSubCommands.ReactiveRedisSubscriber confirmed) {
        subscriber = confirmed;
        // Failures announced before the confirmation were not heard: no pair cleared before it stays, and pairs
        // checked before it are not cleared.
        generation.incrementAndGet();
        cleared.invalidateAll();
        heard = !stopped && subscriptions.get() == current;
    }

    private synchronized void dropped(int current) {
        if (!subscriptions.compareAndSet(current, current + 1)) {
            return;
        }
        if (heard) {
            LOG.warn("The sign-in failure channel was dropped: sign-ins check Redis every time until it is heard again");
        }
        heard = false;
        generation.incrementAndGet();
        if (!stopped) {
            vertx.setTimer(RESUBSCRIBE_AFTER.toMillis(), timer -> subscribe());
        }
    }

    private static int stripe(Pair pair) {
        return Math.floorMod(pair.hashCode(), STRIPES);
    }
}
