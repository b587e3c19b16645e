package io.orderflow.payment;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;

/** What staff decided about a refused refund. */
public record Settlement(
        @Schema(required = true, enumeration = { "refunded-outside", "retry" },
                description = "`refunded-outside`: the money went back outside the engine, so the payment becomes refunded and "
                        + "nothing is sent; `retry`: put the refund back in line")
        String resolution,
        @Schema(description = "Why, for the record (at most 1000 characters)", maxLength = Settlement.MAX_NOTE) String note) {

    /** Longer notes are refused: a note says why, in a sentence or two. */
    public static final int MAX_NOTE = 1000;

    /** The resolution asked for; a settlement that is not valid (none at all included) is refused before anything happens. */
    static RefusedRefunds.Resolution validated(Settlement settlement) {
        List<FieldError> errors = new ArrayList<>();
        RefusedRefunds.Resolution resolution = settlement == null ? null : RefusedRefunds.Resolution.of(settlement.resolution()).orElse(null);
        if (resolution == null) {
            errors.add(new FieldError("resolution", "must be refunded-outside or retry"));
        }
        if (settlement != null && settlement.note() != null && settlement.note().length() > MAX_NOTE) {
            errors.add(new FieldError("note", "must be at most " + MAX_NOTE + " characters"));
        }
        if (!errors.isEmpty()) {
            throw new ProblemException(Problem.invalid(errors));
        }
        return resolution;
    }
}
