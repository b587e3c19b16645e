package io.orderflow.idempotency;

import static io.orderflow.shared.http.WorkerThreads.offEventLoop;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.shared.Hashing;
import io.orderflow.shared.json.Fingerprint;
import io.orderflow.shared.http.Headers;
import io.orderflow.shared.http.RequestBodies;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.problem.ProblemMappers;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;

/**
 * Idempotency-Key on every POST, after draft-ietf-httpapi-idempotency-key-header: the first request
 * with a key runs and its final answer is kept; a retry with the same key and request gets that
 * answer again, with {@code Idempotent-Replayed: true}. Keys are scoped to (principal, method, path), the path
 * being the matched route with its parameters in canonical form ({@link KeyRoute}).
 * Redis answers first (the lease, the in-flight 409, replays); PostgreSQL keeps every final answer
 * for the whole retention (see {@link IdempotencyRecords}) and refills Redis when a retry finds Redis
 * without it (forgotten, or never told of an answer kept with its effect).
 */
public class IdempotencyFilter {

    private static final Logger LOG = Logger.getLogger(IdempotencyFilter.class);
    private static final Uni<Response> NOTHING = Uni.createFrom().nullItem();

    private final IdempotencyStore store;
    private final IdempotencyRecords records;
    private final HeldKey held;
    private final ObjectMapper json;
    private final KeyOutcomes outcomes;

    public IdempotencyFilter(IdempotencyStore store, IdempotencyRecords records, HeldKey held, ObjectMapper json, KeyOutcomes outcomes) {
        this.store = store;
        this.records = records;
        this.held = held;
        this.json = json;
        this.outcomes = outcomes;
    }

    @ServerRequestFilter
    public Uni<Response> claim(ContainerRequestContext request, RoutingContext routing, ResourceInfo resource) {
        // Every endpoint of the API acts for a principal; those that stand in for third parties (sandbox) keep keys of their own.
        if (!"POST".equals(request.getMethod()) || request.getSecurityContext().getUserPrincipal() == null
                || resource.getResourceClass().isAnnotationPresent(KeysOfItsOwn.class)) {
            return NOTHING;
        }
        String key = IdempotencyKeys.parse(request.getHeaders().get(IdempotencyKeys.HEADER));
        if (key == null) {
            if (resource.getResourceMethod().isAnnotationPresent(IdempotencyKeyRequired.class)) {
                throw IdempotencyKeys.missing();
            }
            return NOTHING;
        }
        String path = KeyRoute.path(resource, request.getUriInfo().getPathParameters()::getFirst);
        KeyScope scope = new KeyScope(request.getSecurityContext().getUserPrincipal().getName(), "POST", path, key);
        Fingerprint fingerprint = RequestFingerprint.of("POST", path, RequestBodies.of(routing));
        if (resource.getResourceMethod().isAnnotationPresent(KeyClaimedAlongside.class)) {
            held.defer(new HeldKey.Pending(scope, fingerprint));
            return NOTHING;
        }
        boolean withEffect = resource.getResourceMethod().isAnnotationPresent(KeptWithEffect.class);
        return offEventLoop(() -> decide(store.claim(scope, fingerprint), withEffect));
    }

    /** Acts on what claiming the key found: null lets the request run, as the key's holder; otherwise the key's answer. */
    private Response decide(KeyClaim claim, boolean withEffect) {
        if (claim.outcome().holds()) {
            // Held from here, so that the key is released should PostgreSQL fail to answer.
            held.hold(claim, withEffect);
            // A fresh claim of an endpoint that keeps its key with its effect meets a forgotten key there instead (see keep).
            boolean fresh = withEffect && claim.outcome() == KeyClaim.Outcome.CLAIMED;
            Optional<IdempotencyRecords.Kept> kept = fresh ? Optional.empty() : records.find(claim.scope());
            if (kept.isPresent()) {
                // Redis had forgotten the key (restart, failover, eviction), or was never told: its holder answered
                // with an effect (see keep), or died after its answer was kept. Redis learns it now.
                held.release();
                refill(claim, kept.get());
                return answerAgain(claim, kept.get());
            }
        }
        if (claim.outcome() == KeyClaim.Outcome.IN_USE) {
            // The holder may have answered already: its answer is kept in PostgreSQL before it reaches Redis.
            IdempotencyRecords.Kept kept = keptOrNone(claim);
            if (kept != null) {
                return answerAgain(claim, kept);
            }
        }
        outcomes.count(claim.outcome());
        return switch (claim.outcome()) {
            case CLAIMED, TAKEN_OVER -> null;
            case REPLAY -> replay(claim, claim.answer());
            case IN_USE -> throw inUse();
            case MISMATCH -> throw reused();
        };
    }

    /** The request's effect met an answer kept for its key, which Redis had forgotten: that answer is this one's too. */
    @ServerExceptionMapper
    public Uni<Response> alreadyKept(KeyAlreadyKeptException e) {
        // The effect may have failed on a worker thread, and this be called on the event loop: PostgreSQL is read off it.
        return offEventLoop(this::keptAnswerOfHeldKey);
    }

    private Response keptAnswerOfHeldKey() {
        KeyClaim claim = held.claim();
        IdempotencyRecords.Kept kept = keptOrNone(claim);
        if (kept == null) {
            // PostgreSQL stopped answering right after it refused the effect: nothing was written, a retry gets the answer.
            return problem(inUse());
        }
        held.kept(kept);
        return answerAgain(claim, kept);
    }

    /** The key, claimed alongside the endpoint's own claim, answers the request itself. */
    @ServerExceptionMapper
    public Uni<Response> answeredByKey(KeyAnsweredException e) {
        return offEventLoop(() -> {
            Response answer = keyAnswer(e.claim());
            // Against the odds the key no longer answers (an answer purged meanwhile); the response filter frees it.
            return answer != null ? answer : problem(inUse());
        });
    }

    /** What the key answers, refusals included, for a {@link KeptWithEffect} endpoint; null when this request now holds it. */
    private Response keyAnswer(KeyClaim claim) {
        try {
            return decide(claim, true);
        } catch (ProblemException refusal) {
            return problem(refusal);
        }
    }

    private Response problem(ProblemException e) {
        Response.ResponseBuilder answer = ProblemMappers.builder(e.problem(), json);
        return (e.retryAfter() == null ? answer : answer.header(HttpHeaders.RETRY_AFTER, e.retryAfter().toSeconds())).build();
    }

    @ServerResponseFilter
    public Uni<Void> keep(ContainerRequestContext request, ContainerResponseContext response, ResourceInfo resource) {
        if (!"POST".equals(request.getMethod()) || !held.any()) {
            return Uni.createFrom().voidItem();
        }
        // No method when the request was answered before reaching one (a key whose kept answer could not be read).
        boolean sealed = resource.getResourceMethod() != null && resource.getResourceMethod().isAnnotationPresent(AnswerKeptSealed.class);
        return offEventLoop(() -> {
            keepAnswer(response, sealed);
            return null;
        });
    }

    private void keepAnswer(ContainerResponseContext response, boolean sealed) {
        HeldKey.Pending unclaimed = held.takePending();
        if (unclaimed != null && !claimBeforeAnswer(unclaimed, response)) {
            return;
        }
        KeyClaim claim = held.claim();
        if (claim == null) {
            return;
        }
        held.release();
        try {
            IdempotencyRecords.Kept kept = held.kept();
            if (kept != null) {
                if (claim.fingerprint().matches(kept.fingerprint())) {
                    // The answer kept with the effect goes out as the very bytes that replays will send.
                    response.setEntity(kept.answer().bytes(), response.getEntityAnnotations(), kept.answer().type());
                }
                if (!held.keptWithThisEffect()) {
                    refill(claim, kept);
                }
                // This request's own effect: Redis is not told (a write on every such request); a retry finds the key
                // in use, or past its lease taken over, and its answer in PostgreSQL, and Redis learns it then.
                return;
            }
            StoredAnswer answer = StoredAnswer.of(response.getStatus(), response.getEntity(), response.getMediaType(), response::getHeaderString,
                    json, sealed);
            if (isFinal(answer)) {
                // The first answer goes out as the very bytes that replays will send.
                response.setEntity(answer.bytes(), response.getEntityAnnotations(), answer.type());
                try {
                    kept = records.keep(claim, answer).orElse(null);
                } catch (RuntimeException notKept) {
                    // An answer never goes out while its key's record may be lost: the key is freed and the client retries.
                    LOG.warnf("Could not keep the answer for an Idempotency-Key; answering 503 instead: %s", notKept.toString());
                    answerInstead(response, problem(unavailable()));
                    store.release(claim);
                    return;
                }
                if (kept != null) {
                    refill(claim, kept);
                    return;
                }
            }
            // Kept meanwhile by another request; or, before an effect answered otherwise, by one Redis has forgotten.
            kept = isFinal(answer) || held.withEffect() ? keptOrNone(claim) : null;
            if (kept == null) {
                store.release(claim);
                return;
            }
            answerInstead(response, answerAgain(claim, kept));
            refill(claim, kept);
        } catch (RuntimeException e) {
            // The answer still goes out; the key's lease runs out and a retry runs again, or finds the answer in PostgreSQL.
            LOG.warnf("Could not keep the answer for an Idempotency-Key: %s", e.toString());
        }
    }

    /**
     * The endpoint answered before it claimed its key (a refusal, see {@link KeyClaimedAlongside}): the key's
     * own answers come first, so it is claimed now. False when the key answers instead, or Redis fails
     * (the endpoint's answer stands); true when this request now holds the key.
     */
    private boolean claimBeforeAnswer(HeldKey.Pending unclaimed, ContainerResponseContext response) {
        KeyClaim claim;
        try {
            claim = store.claim(unclaimed.scope(), unclaimed.fingerprint());
        } catch (RuntimeException e) {
            LOG.warnf("Could not claim an Idempotency-Key after its endpoint's answer: %s", e.toString());
            return false;
        }
        Response answer = keyAnswer(claim);
        if (answer != null) {
            answerInstead(response, answer);
            return false;
        }
        return true;
    }

    /** The answer kept for the key; none when there is none or PostgreSQL does not answer (the endpoint's answer stands). */
    private IdempotencyRecords.Kept keptOrNone(KeyClaim claim) {
        try {
            return records.find(claim.scope()).orElse(null);
        } catch (RuntimeException e) {
            LOG.debugf("No kept answer could be read for an Idempotency-Key: %s", e.toString());
            return null;
        }
    }

    /** Sends {@code answer} in place of the response the endpoint gave. */
    private static void answerInstead(ContainerResponseContext response, Response answer) {
        List.of(HttpHeaders.LOCATION, HttpHeaders.CACHE_CONTROL, HttpHeaders.RETRY_AFTER, Headers.REPLAYED).forEach(response.getHeaders()::remove);
        answer.getHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase(HttpHeaders.CONTENT_TYPE)) {
                response.getHeaders().put(name, values);
            }
        });
        response.setStatus(answer.getStatus());
        response.setEntity(answer.getEntity(), response.getEntityAnnotations(), answer.getMediaType());
    }

    /** The answer kept for the key, to a request with the same fingerprint; 422 to any other. */
    private Response answerAgain(KeyClaim claim, IdempotencyRecords.Kept kept) {
        if (!claim.fingerprint().matches(kept.fingerprint())) {
            outcomes.count(KeyClaim.Outcome.MISMATCH);
            return ProblemMappers.builder(reused().problem(), json).build();
        }
        outcomes.count(KeyClaim.Outcome.REPLAY);
        return replay(claim, kept.answer());
    }

    /**
     * Gives Redis what PostgreSQL keeps for the key, without waiting for it: a retry that arrives first
     * finds the key in use and its answer in PostgreSQL; if Redis fails, PostgreSQL answers every retry.
     */
    private void refill(KeyClaim claim, IdempotencyRecords.Kept kept) {
        store.complete(claim, kept.fingerprint(), kept.answer(), kept.left(Instant.now()))
                .subscribe().with(stored -> { }, e -> LOG.warnf("Redis did not take back a kept Idempotency-Key: %s", e.toString()));
    }

    /**
     * Answers worth replaying: successes and business outcomes. Refusals a retry may cure
     * (400, 401, 403, 409 in-use, 410, 413, 429) and failures (5xx) free the key instead.
     */
    private boolean isFinal(StoredAnswer answer) {
        int status = answer.status();
        if (status >= 200 && status < 300) {
            return true;
        }
        return switch (status) {
            case 402, 404, 422 -> true;
            case 409 -> ProblemCode.INVALID_TRANSITION.code().equals(problemCode(answer.bytes()));
            default -> false;
        };
    }

    private String problemCode(byte[] body) {
        try {
            return json.readTree(body).path("code").asText();
        } catch (IOException e) {
            return null;
        }
    }

    private static Response replay(KeyClaim claim, StoredAnswer answer) {
        LOG.infof("Replayed POST %s for Idempotency-Key %s", claim.scope().path(), Hashing.sha256Hex(claim.scope().key()).substring(0, 16));
        return answer.replay();
    }

    private static ProblemException unavailable() {
        return new ProblemException(Problem.of(ProblemCode.SERVICE_UNAVAILABLE, "The answer could not be recorded; retry with the same Idempotency-Key."),
                Duration.ofSeconds(1));
    }

    private static ProblemException inUse() {
        return new ProblemException(Problem.of(ProblemCode.IDEMPOTENCY_KEY_IN_USE, "A request with this Idempotency-Key is still running; retry shortly to get its answer."), Duration.ofSeconds(1));
    }

    private static ProblemException reused() {
        return new ProblemException(Problem.of(ProblemCode.IDEMPOTENCY_KEY_REUSED, "This Idempotency-Key was used for a different request; use a new key for a new request."));
    }
}
