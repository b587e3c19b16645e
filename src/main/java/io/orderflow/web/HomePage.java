package io.orderflow.web;

import java.net.URI;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

/** The site's front door leads to the checkout. */
@Path("/")
@PermitAll
public class HomePage {

    @GET
    @Operation(hidden = true)
    public Response home() {
        return Response.seeOther(URI.create("/checkout")).build();
    }
}
