package io.orderflow.web;

import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;


/** The sign-in form of the web pages; Quarkus's form authentication takes its POST to /j_security_check. */
@Path("/login")
@PermitAll
public class LoginPage {

    /** The query parameter of the sign-in page shown after signing out, which then says so. */
    static final String SIGNED_OUT = "signed-out";

    private final Pages pages;

    public LoginPage(Pages pages) {
        this.pages = pages;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestQuery String error, @RestQuery(SIGNED_OUT) String signedOut) {
        return pages.page(200, "login", Map.of("failed", error != null, "signedOut", signedOut != null && error == null));
    }
}
