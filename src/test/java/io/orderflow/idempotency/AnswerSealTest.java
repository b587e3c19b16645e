package io.orderflow.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.orderflow.shared.problem.ProblemException;

import io.orderflow.support.FastTest;

/** A sealed body opens to the very text sealed, only under the same session key; without one the service does not start. */
@FastTest
class AnswerSealTest {

    private static final String ANSWER = "{\"token\":\"Zm9vYmFy\",\"expiresAt\":\"2026-12-04T19:30:00Z\",\"ttlSeconds\":300}";

    private final AnswerSeal seal = new AnswerSeal(Optional.of("a-session-key-of-thirty-two-characters"));

    @Test
    void aSealedBodyHidesItsTextAndOpensToTheSameText() {
        String sealed = seal.seal(ANSWER);

        assertThat(sealed).startsWith(AnswerSeal.SEALED).doesNotContain("Zm9vYmFy");
        assertThat(AnswerSeal.isSealed(sealed)).isTrue();
        assertThat(AnswerSeal.isSealed(ANSWER)).isFalse();
        assertThat(seal.open(sealed)).isEqualTo(ANSWER);
        assertThat(seal.seal(ANSWER)).as("a fresh nonce each time").isNotEqualTo(sealed);
    }

    @Test
    void anotherSessionKeyCannotOpenIt() {
        AnswerSeal another = new AnswerSeal(Optional.of("another-session-key-of-thirty-two-chars"));

        assertThatThrownBy(() -> another.open(seal.seal(ANSWER))).isInstanceOf(ProblemException.class)
                .satisfies(e -> assertThat(((ProblemException) e).problem().status()).isEqualTo(410))
                .hasMessageContaining("keys changed");
    }

    @Test
    void withoutASessionKeyTheServiceDoesNotStartAndSaysWhichSettingIsMissing() {
        assertThatThrownBy(() -> new AnswerSeal(Optional.empty())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("QUARKUS_HTTP_AUTH_SESSION_ENCRYPTION_KEY");
    }
}
