package io.orderflow.shared.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** Problem codes: one per problem, read back as written, each with its status and title. */
@FastTest
class ProblemCodeTest {

    @Test
    void everyCodeIsReadBackAsTheProblemItNames() {
        for (ProblemCode code : ProblemCode.values()) {
            assertThat(code.code()).matches("[a-z]+(-[a-z]+)*");
            assertThat(ProblemCode.of(code.code())).contains(code);
        }
    }

    @Test
    void aCodeOfNoProblemOfTheServiceIsReadAsNone() {
        assertThat(ProblemCode.of("http-408")).isEmpty();
        assertThat(ProblemCode.of("ORDER-NOT-FOUND")).isEmpty();
        assertThat(ProblemCode.of(null)).isEmpty();
    }

    @Test
    void aProblemCarriesItsCodesStatusTitleAndType() {
        Problem problem = Problem.of(ProblemCode.ORDER_TOKEN_INVALID, "Get a new one.");

        assertThat(problem.code()).isEqualTo("order-token-invalid");
        assertThat(problem.status()).isEqualTo(410);
        assertThat(problem.title()).isEqualTo("Order token invalid");
        assertThat(problem.type()).isEqualTo("/problems/order-token-invalid");
        assertThat(ProblemCode.of(problem.code())).contains(ProblemCode.ORDER_TOKEN_INVALID);
    }

    @Test
    void everyStatusIsAnErrorStatus() {
        assertThat(Arrays.stream(ProblemCode.values()).map(ProblemCode::status)).allMatch(status -> status >= 400 && status < 600);
    }

    @Test
    void theBodyLimitIsQuotedAsConfigured() {
        assertThat(Problem.tooLarge(1024 * 1024).detail()).isEqualTo("The request body is larger than 1 MiB.");
        assertThat(Problem.tooLarge(64 * 1024).detail()).isEqualTo("The request body is larger than 64 KiB.");
        assertThat(Problem.tooLarge(1000).detail()).isEqualTo("The request body is larger than 1000 bytes.");
    }

    @Test
    void aListedMemberIsReadWithItsType() {
        Problem invalid = Problem.invalid(List.of(new FieldError("items[0].sku", "is required")));

        assertThat(invalid.listed(Problem.ERRORS, FieldError.class)).containsExactly(new FieldError("items[0].sku", "is required"));
        assertThat(invalid.listed(Problem.ITEMS, FieldError.class)).isEmpty();
    }
}
