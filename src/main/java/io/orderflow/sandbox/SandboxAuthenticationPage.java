package io.orderflow.sandbox;

import java.net.URI;
import java.util.regex.Pattern;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;

import io.orderflow.idempotency.KeysOfItsOwn;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/**
 * The sandbox card issuer's authentication page (3-D Secure): a charge made with
 * {@code pm_card_authenticationRequired} waits here for its customer, who approves or fails it and is sent
 * back to the shop. Like a real issuer's page it needs no sign-in at the shop: the charge's reference,
 * random and unguessable, is the capability, and nothing but that one waiting charge can be changed.
 */
@Path(SandboxProviders.AUTHENTICATION_PATH + "{reference}")
@PermitAll
@KeysOfItsOwn
public class SandboxAuthenticationPage {

    private static final Pattern REFERENCE = Pattern.compile("charge_[0-9a-f]{32}");
    private static final String PAGE = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Sandbox card issuer: authenticate a payment</title></head>
            <body><main>
            <h1>Authenticate your payment</h1>
            <p>This is the sandbox's card issuer. A real bank would ask for a code or an app's approval here.</p>
            <form method="post"><button name="answer" value="approve">Approve the payment</button>
            <button name="answer" value="fail">Fail the authentication</button></form>
            </main></body></html>
            """;

    private final SandboxProviders providers;
    private final SandboxEvents events;
    private final SandboxConfig config;

    public SandboxAuthenticationPage(SandboxProviders providers, SandboxEvents events, SandboxConfig config) {
        this.providers = providers;
        this.events = events;
        this.config = config;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestPath String reference) {
        if (!waiting(reference)) {
            return gone();
        }
        return Response.ok(PAGE).header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response answer(@RestPath String reference, @RestForm String answer) {
        if (!"approve".equals(answer) && !"fail".equals(answer)) {
            throw new ProblemException(Problem.of(ProblemCode.VALIDATION_FAILED, "answer must be approve or fail"));
        }
        if (!valid(reference)) {
            return gone();
        }
        return providers.authenticate(reference, "approve".equals(answer)).map(back -> {
            events.send("action.completed", providers.chargeOf(reference));
            return Response.seeOther(URI.create(back)).build();
        }).orElseGet(SandboxAuthenticationPage::gone);
    }

    private boolean waiting(String reference) {
        return valid(reference) && providers.awaitsAuthentication(reference);
    }

    private boolean valid(String reference) {
        return config.enabled() && REFERENCE.matcher(reference).matches();
    }

    private static Response gone() {
        return Response.status(404).type(MediaType.TEXT_HTML)
                .entity("<!DOCTYPE html><html lang=\"en\"><head><title>Nothing to authenticate</title></head><body><main>"
                        + "<h1>Nothing to authenticate</h1><p>This payment is not waiting for an authentication.</p></main></body></html>")
                .build();
    }
}
