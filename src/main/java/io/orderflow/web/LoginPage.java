package io.orderflow.web;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/** The sign-in form of the web pages; Quarkus's form authentication takes its POST to /j_security_check. */
@Path("/login")
@PermitAll
public class LoginPage {

    @CheckedTemplate
    static class Templates {
        static native TemplateInstance login(boolean failed);
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public TemplateInstance show(@RestQuery String error) {
        return Templates.login(error != null);
    }
}
