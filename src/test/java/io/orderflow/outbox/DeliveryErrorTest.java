package io.orderflow.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.ProcessingException;

import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;

import io.orderflow.shared.downstream.DownstreamRefusedException;
import io.orderflow.shared.downstream.DownstreamUnavailableException;
import io.orderflow.support.FastTest;

/** What staff are told about a failed delivery: a code for each kind of provider failure, and no internals. */
@FastTest
class DeliveryErrorTest {

    @Test
    void aProviderAnswerKeepsItsStatus() {
        assertThat(DeliveryError.of(new DownstreamUnavailableException(503, null)))
                .isEqualTo(new DeliveryError("provider-unavailable", "The provider answered 503"));
        assertThat(DeliveryError.of(new DownstreamRefusedException(400, null)))
                .isEqualTo(new DeliveryError("provider-refused", "The provider refused the call with 400"));
        assertThat(DeliveryError.of(new DownstreamRefusedException(400, "charge_already_refunded: Charge ch_x has already been refunded.")))
                .isEqualTo(new DeliveryError("provider-refused",
                        "The provider refused the call with 400: charge_already_refunded: Charge ch_x has already been refunded."));
    }

    @Test
    void aProviderAnswerIsFoundWhereverItIsWrapped() {
        assertThat(DeliveryError.of(new ProcessingException(new DownstreamUnavailableException(502, null))).code())
                .isEqualTo("provider-unavailable");
    }

    @Test
    void transportFailuresAreNamedWithoutTheirDetails() {
        DeliveryError unreachable = DeliveryError.of(new ProcessingException("java.net.ConnectException: Connection refused: warehouse/10.0.0.7:80"));
        DeliveryError timeout = DeliveryError.of(new TimeoutException("Timeout[io.orderflow.warehouse.Shipments#deliver] timed out"));

        assertThat(unreachable.code()).isEqualTo("provider-unreachable");
        assertThat(timeout.code()).isEqualTo("provider-timeout");
        assertThat(unreachable.message() + timeout.message()).doesNotContain("Exception", "10.0.0.7", "io.orderflow");
    }

    @Test
    void anythingElseIsAGenericFailure() {
        DeliveryError error = DeliveryError.of(new IllegalStateException("ERROR: column \"x\" does not exist in SELECT x FROM outbox"));

        assertThat(error.code()).isEqualTo("delivery-failed");
        assertThat(error.message()).doesNotContain("SELECT", "Exception");
    }
}
