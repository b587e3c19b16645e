package io.orderflow.token;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import io.orderflow.idempotency.AnswerKeptSealed;
import io.orderflow.idempotency.IdempotencyKeys;
import io.orderflow.shared.openapi.ApiDocument;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.BasicAuthentication;
import io.smallrye.mutiny.Uni;

@Path("/orders/token")
@BasicAuthentication
@Authenticated
@Tag(name = ApiDocument.ORDERS)
@SecurityRequirement(name = ApiDocument.BASIC)
@SecurityRequirement(name = ApiDocument.BEARER)
public class TokenResource {

    private final OrderTokens tokens;
    private final SecurityIdentity identity;

    public TokenResource(OrderTokens tokens, SecurityIdentity identity) {
        this.tokens = tokens;
        this.identity = identity;
    }

    @POST
    @AnswerKeptSealed
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "issueOrderToken", summary = "Issue a one-time order token for POST /orders")
    @Parameter(name = IdempotencyKeys.HEADER, in = ParameterIn.HEADER, description = "Optional: a retry with it answers the same token",
            schema = @Schema(ref = "IdempotencyKey"))
    @APIResponse(responseCode = "201", description = "The token, its expiry and lifetime; Cache-Control: no-store",
            content = @Content(schema = @Schema(implementation = IssuedToken.class)))
    @APIResponse(responseCode = "400", description = "`idempotency-key-invalid`")
    @APIResponse(responseCode = "409", description = "`idempotency-key-in-use`: see Retry-After")
    @APIResponse(responseCode = "410", description = "`idempotency-key-expired`: the answer kept for the key can no longer be read "
            + "(the service's keys changed); send it again with a new key")
    @APIResponse(responseCode = "422", description = "`idempotency-key-reused` for another request")
    @APIResponse(responseCode = "429", description = "`too-many-tokens`: the cap of unused tokens is reached; see Retry-After")
    public Uni<Response> issue() {
        return tokens.issue(Caller.of(identity).name())
                .map(issued -> Response.status(Response.Status.CREATED).header(HttpHeaders.CACHE_CONTROL, "no-store").entity(issued).build());
    }
}
