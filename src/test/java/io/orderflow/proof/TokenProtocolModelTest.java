package io.orderflow.proof;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.orderflow.proof.ExhaustiveChecker.Result;
import io.orderflow.proof.TokenProtocolModel.Fault;
import io.orderflow.proof.TokenProtocolModel.Variant;
import io.orderflow.support.BesideTheApp;

/**
 * Checks the one-time order token protocol in every interleaving of three requests with one token (two
 * with the same body, one with another) and every fault; see ops/proof/MODEL.md.
 */
@BesideTheApp
class TokenProtocolModelTest {

    private static final String PAYLOADS = "AAB";
    private static final Set<Fault> EVERY_FAULT = EnumSet.allOf(Fault.class);
    /** Well under what the search visits, so that a model that stops early fails. */
    private static final int STATES_FLOOR = 50_000;

    @Test
    void everyInterleavingMakesAtMostOneOrderKeepsA410FinalAndRetriesGetTheOrder() {
        Result result = check(Variant.AS_BUILT);

        System.out.println("Token protocol model, as built: " + result.statesExplored() + " states explored, invariant "
                + (result.holds() ? "holds" : "broken"));
        assertThat(result.counterexample()).isEmpty();
        assertThat(result.statesExplored()).isGreaterThan(STATES_FLOOR);
    }

    @ParameterizedTest
    @EnumSource(value = Variant.class, names = { "NO_UNIQUE_CONSTRAINT", "UNKNOWN_SKIPS_DATABASE", "NO_REFUSAL_ROW" })
    void withoutASafeguardTheCheckerFindsACounterexample(Variant variant) {
        Result result = check(variant);

        printTrace(variant + ", counterexample after " + result.statesExplored() + " states", result);
        assertThat(result.holds()).isFalse();
    }

    /**
     * The claim id checks in Redis spare work, and an order id Redis records wrongly is caught by the
     * lookup that follows a refusal's conflict: PostgreSQL alone keeps the invariant.
     */
    @ParameterizedTest
    @EnumSource(value = Variant.class, names = { "COMPLETE_IGNORES_CLAIM_ID", "RELEASE_IGNORES_CLAIM_ID", "DUPLICATE_RECORDS_ITS_OWN_ORDER" })
    void theInvariantDoesNotRestOnWhatRedisRecords(Variant variant) {
        Result result = check(variant);

        System.out.println("Token protocol model, " + variant + ": " + result.statesExplored() + " states explored");
        assertThat(result.counterexample()).isEmpty();
        assertThat(result.statesExplored()).isGreaterThan(STATES_FLOOR);
    }

    /**
     * 410 says "get a new one". Without its refusal recorded in PostgreSQL, a request that outlived its
     * lease can still make an order after it: even with Redis keeping every write and nothing failing,
     * only time passing.
     */
    @Test
    void withoutTheRefusalRowATokenRefusedAsInvalidCanStillMakeAnOrderLater() {
        TokenProtocolModel model = new TokenProtocolModel(PAYLOADS, Variant.NO_REFUSAL_ROW, Set.of());

        Result result = ExhaustiveChecker.explore(model.initial(), model::successors, model::brokenInvariant);

        printTrace("Without the refusal row, 410 followed by an order", result);
        assertThat(result.counterexample()).last().asString().contains("answered 410 order-token-invalid, yet the token made O");
    }

    private static Result check(Variant variant) {
        TokenProtocolModel model = new TokenProtocolModel(PAYLOADS, variant, EVERY_FAULT);
        return ExhaustiveChecker.explore(model.initial(), model::successors, model::brokenInvariant);
    }

    private static void printTrace(String title, Result result) {
        System.out.println(title + ":");
        result.counterexample().forEach(step -> System.out.println("  " + step));
    }
}
