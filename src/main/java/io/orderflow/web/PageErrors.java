package io.orderflow.web;

import java.util.Map;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.orderflow.shared.problem.ProblemMappers;
import io.quarkus.security.ForbiddenException;
import io.vertx.core.http.HttpServerRequest;

/**
 * Under {@code /checkout} and {@code /console}, where people read the answers, an address that leads nowhere and a page the account may not
 * open are answered with a page in the visitor's language (404 and 403), and so is a backing service that fails (503);
 * everywhere else with the API's problem details.
 */
class PageErrors {

    private final ProblemMappers problems;
    private final Pages pages;

    PageErrors(ProblemMappers problems, Pages pages) {
        this.problems = problems;
        this.pages = pages;
    }

    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response notFound(NotFoundException e, HttpServerRequest request) {
        return isPage(request) ? pages.page(404, "not-found", Map.of()) : problems.http(e);
    }

    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response forbidden(ForbiddenException e, HttpServerRequest request) {
        return isPage(request) ? pages.page(403, "forbidden", Map.of("console", isConsole(request), "adminsOnly", under(request, ConsoleUsersPage.PATH)))
                : problems.forbidden(e);
    }

    /** A backing service that fails while a page is made: a page that says to try again in a moment (503), never a stack trace. */
    @ServerExceptionMapper(priority = Priorities.USER - 1)
    public Response unavailable(Throwable e, HttpServerRequest request) {
        if (!isPage(request) || !ProblemMappers.isUnavailable(e)) {
            return problems.unexpected(e);
        }
        return Response.fromResponse(pages.page(503, "unavailable", Map.of())).header(HttpHeaders.RETRY_AFTER, 1).build();
    }

    private static boolean isPage(HttpServerRequest request) {
        return request != null && (under(request, CheckoutPage.PATH) || isConsole(request));
    }

    private static boolean isConsole(HttpServerRequest request) {
        return under(request, ConsoleOrderPage.CONSOLE);
    }

    private static boolean under(HttpServerRequest request, String path) {
        return request.path().equals(path) || request.path().startsWith(path + "/");
    }
}
