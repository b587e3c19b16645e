package io.orderflow.login;

import java.util.Map;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.orderflow.shared.problem.ProblemMappers;
import io.orderflow.web.PageText;
import io.orderflow.web.Pages;
import io.vertx.core.http.HttpServerRequest;

/**
 * Answers a refused sign-in with 429 and Retry-After: the sign-in form is shown again with a
 * message saying when to try again; API clients get the problem detail.
 */
class SignInRefusals {

    private final ProblemMappers problems;
    private final Pages pages;
    private final PageText text;
    private final String signIn;

    public SignInRefusals(ProblemMappers problems, Pages pages, PageText text,
            @ConfigProperty(name = "quarkus.http.auth.form.post-location", defaultValue = "/j_security_check") String signIn) {
        this.problems = problems;
        this.pages = pages;
        this.text = text;
        this.signIn = signIn;
    }

    @ServerExceptionMapper
    public Response refused(SignInRefusedException e, HttpServerRequest request) {
        if (request == null || !signIn.equals(request.path())) {
            return problems.problem(e);
        }
        long seconds = e.retryAfterSeconds();
        String wait = seconds < 120 ? text.get("login_throttled_seconds", seconds) : text.get("login_throttled_minutes", (seconds + 59) / 60);
        return Response.fromResponse(pages.page(429, "login", Map.of("failed", false, "retryIn", wait)))
                .header(HttpHeaders.RETRY_AFTER, seconds).build();
    }
}
