package io.orderflow.payment;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.orderflow.idempotency.KeysOfItsOwn;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.webhook.EventSignature;

/**
 * The payment provider's signed event notifications (webhooks). No user signs in here: the signature,
 * an HMAC of the raw body and its timestamp with the secret shared with the provider, is the
 * authentication, checked before the body is read; each event is de-duplicated by its id.
 */
@Path("/payments/provider-events")
@PermitAll
@KeysOfItsOwn
@Tag(name = ApiDocument.OPERATIONS)
@SecurityRequirement(name = ApiDocument.PROVIDER_SIGNATURE)
public class ProviderEventResource {

    private static final int MAX_ID = 255;

    private final ProviderEvents events;
    private final PaymentConfig config;
    private final ObjectMapper json;

    public ProviderEventResource(ProviderEvents events, PaymentConfig config, ObjectMapper json) {
        this.events = events;
        this.config = config;
        this.json = json;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "receiveProviderEvent",
            summary = "The payment provider's signed notification of a charge or refund; repeats and any order of arrival are fine")
    @APIResponse(responseCode = "200", description = "Received (a repeat too)",
            content = @Content(schema = @Schema(implementation = Map.class)))
    @APIResponse(responseCode = "400", description = "`invalid-signature`: no signature, one that does not match the body, or a "
            + "timestamp outside the tolerance (a replay); `validation-failed` or `malformed-json`: not an event")
    @APIResponse(responseCode = "404", description = "`not-found`: no signing secret is configured")
    @APIResponse(responseCode = "503", description = "`service-unavailable`: the provider sends it again later")
    public Map<String, Object> receive(
            @Parameter(description = "t=<unix seconds>,v1=<hex HMAC-SHA256 of \"t.body\">", required = true)
            @RestHeader(EventSignature.HEADER) String signature, byte[] body) throws IOException {
        String secret = config.events().secret()
                .orElseThrow(() -> new ProblemException(Problem.of(ProblemCode.NOT_FOUND, "There is nothing at this address.")));
        try {
            EventSignature.verify(signature, body, secret, config.events().tolerance(), Instant.now());
        } catch (EventSignature.InvalidSignatureException e) {
            throw new ProblemException(Problem.of(ProblemCode.INVALID_SIGNATURE, e.getMessage()));
        }
        ProviderEvent event = json.readValue(body, ProviderEvent.class);
        if (event == null || event.id() == null || event.id().isBlank() || event.id().length() > MAX_ID || event.type() == null
                || ProviderEvent.READ.contains(event.type()) && (event.data() == null || event.data().key() == null)) {
            throw new ProblemException(Problem.of(ProblemCode.VALIDATION_FAILED,
                    "An event has an id (1 to 255 characters), a type and, for a charge's event, the charge with its key."));
        }
        events.handle(event);
        return Map.of("received", true);
    }
}
