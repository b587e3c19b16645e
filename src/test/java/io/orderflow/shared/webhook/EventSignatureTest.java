package io.orderflow.shared.webhook;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.orderflow.support.FastTest;

/** A provider notification's signature, checked as an attacker would try to get around it. */
@FastTest
class EventSignatureTest {

    private static final String SECRET = "whsec_test";
    private static final byte[] BODY = "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\"}".getBytes(StandardCharsets.UTF_8);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

    @Test
    void aSignatureOfTheBodyAndATimestampWithinTheToleranceIsAccepted() {
        assertThatCode(() -> EventSignature.verify(EventSignature.sign(SECRET, NOW.minusSeconds(60), BODY), BODY, SECRET, TOLERANCE, NOW))
                .doesNotThrowAnyException();
        // Providers send the signatures of an old and a new secret side by side while they rotate it.
        String both = EventSignature.sign("whsec_old", NOW, BODY) + "," + EventSignature.sign(SECRET, NOW, BODY).split(",")[1];
        assertThatCode(() -> EventSignature.verify(both, BODY, SECRET, TOLERANCE, NOW)).doesNotThrowAnyException();
    }

    @Test
    void everyWayAroundItIsRefused() {
        String good = EventSignature.sign(SECRET, NOW, BODY);
        byte[] tampered = "{\"id\":\"evt_1\",\"type\":\"charge.refunded\"}".getBytes(StandardCharsets.UTF_8);
        String timestamp = "t=" + NOW.getEpochSecond();
        assertRefused(null, BODY, "missing");
        assertRefused("", BODY, "missing");
        assertRefused(good, tampered, "No signature matches");
        assertRefused(EventSignature.sign("guessed", NOW, BODY), BODY, "No signature matches");
        assertRefused(timestamp, BODY, "No signature matches");
        assertRefused(timestamp + ",v1=zz", BODY, "No signature matches");
        assertRefused(good.split(",")[1], BODY, "no timestamp");
        assertRefused("t=yesterday," + good.split(",")[1], BODY, "not a number");
        // The same signature under another timestamp: the timestamp is signed too.
        assertRefused("t=" + (NOW.getEpochSecond() + 1) + "," + good.split(",")[1], BODY, "No signature matches");
        // A notification recorded and sent again later.
        assertRefused(EventSignature.sign(SECRET, NOW.minus(TOLERANCE).minusSeconds(1), BODY), BODY, "tolerance");
        assertRefused(EventSignature.sign(SECRET, NOW.plus(TOLERANCE).plusSeconds(1), BODY), BODY, "tolerance");
    }

    private static void assertRefused(String header, byte[] body, String why) {
        assertThatThrownBy(() -> EventSignature.verify(header, body, SECRET, TOLERANCE, NOW))
                .isInstanceOf(EventSignature.InvalidSignatureException.class).hasMessageContaining(why);
    }
}
