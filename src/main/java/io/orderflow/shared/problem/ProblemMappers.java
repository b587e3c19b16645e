package io.orderflow.shared.problem;

import java.net.URI;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import io.orderflow.shared.redis.RedisErrors;
import io.orderflow.shared.security.TokenRefusals;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;
import io.vertx.core.VertxException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;

/**
 * Turns every failure into an RFC 9457 problem answer. Nothing internal (stack traces, SQL,
 * class names) reaches a client; unexpected failures are logged with an id the client sees.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    private final ObjectMapper json;
    private final String loginPage;
    private final String errorPage;
    private final String locationCookie;
    private final long maxBodyBytes;

    public ProblemMappers(ObjectMapper json, @ConfigProperty(name = "quarkus.http.auth.form.login-page") String loginPage,
            @ConfigProperty(name = "quarkus.http.auth.form.error-page") String errorPage,
            @ConfigProperty(name = "quarkus.http.auth.form.location-cookie") String locationCookie,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize) {
        this.json = json;
        this.loginPage = loginPage;
        this.errorPage = errorPage;
        this.locationCookie = locationCookie;
        this.maxBodyBytes = maxBodySize.asLongValue();
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        Response.ResponseBuilder answer = builder(e.problem(), json);
        if (e.retryAfter() != null) {
            answer.header("Retry-After", Math.max(1, (e.retryAfter().toMillis() + 999) / 1000));
        }
        return answer.build();
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e) {
        return respond(badJson(e));
    }

    /** Takes precedence over quarkus-rest-jackson's own answer to this exception, which is no problem detail. */
    @ServerExceptionMapper
    public Response mistypedJson(MismatchedInputException e) {
        return respond(badJson(e));
    }

    /** API clients are asked for HTTP Basic credentials; a browser on a web page is sent to the sign-in form. */
    @ServerExceptionMapper
    public Response unauthenticated(UnauthorizedException e, SimpleResourceInfo resource, HttpServerRequest request) {
        return isPage(resource) ? signIn(request) : unauthorized();
    }

    /** Whether the request was matched to a page; credentials are refused before a request is matched, too. */
    private static boolean isPage(SimpleResourceInfo resource) {
        return resource != null && resource.getResourceClass() != null && resource.getResourceClass().isAnnotationPresent(FormAuthentication.class);
    }

    /** The sign-in form, and a way back to the page asked for. */
    private Response signIn(HttpServerRequest request) {
        Response.ResponseBuilder signIn = Response.status(Response.Status.FOUND).location(URI.create(loginPage));
        if (request != null && request.method() == HttpMethod.GET) {
            // Where to return after signing in, as Quarkus's form authentication keeps it (and checks it is this host's).
            signIn.cookie(new NewCookie.Builder(locationCookie).value(request.absoluteURI()).path("/").httpOnly(true)
                    .sameSite(NewCookie.SameSite.STRICT).secure(request.isSSL() || "https".equals(request.scheme())).build());
        }
        return signIn.build();
    }

    /**
     * Wrong credentials: the sign-in form goes back to its page with an error; a page whose session no longer stands
     * (its user disabled) goes to the sign-in form; API clients get 401.
     */
    @ServerExceptionMapper
    public Response badCredentials(AuthenticationFailedException e, SimpleResourceInfo resource, HttpServerRequest request) {
        if (request != null && "/j_security_check".equals(request.path())) {
            return Response.status(Response.Status.FOUND).location(URI.create(errorPage)).build();
        }
        if (isPage(resource)) {
            return signIn(request);
        }
        String authorization = request == null ? null : request.getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, "Bearer ".length())) {
            // A bearer client is told why its token was refused, and asked for a token rather than a password (RFC 6750).
            return builder(Problem.of(ProblemCode.UNAUTHORIZED, "The bearer token was refused: " + TokenRefusals.reason(e) + "."), json)
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"orders\", error=\"invalid_token\"").build();
        }
        return unauthorized();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(Problem.forbidden());
    }

    @ServerExceptionMapper
    public Response http(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            return unexpected(e);
        }
        if (e.getCause() instanceof JsonProcessingException cause) {
            return respond(badJson(cause));
        }
        Problem problem = switch (status) {
            case 400 -> Problem.of(ProblemCode.BAD_REQUEST, "The request could not be understood.");
            case 404 -> Problem.of(ProblemCode.NOT_FOUND, "There is nothing at this address.");
            case 405 -> Problem.of(ProblemCode.METHOD_NOT_ALLOWED, "This address does not take that method.");
            case 406 -> Problem.of(ProblemCode.NOT_ACCEPTABLE, "This address answers in application/json only.");
            case 413 -> Problem.tooLarge(maxBodyBytes);
            case 415 -> Problem.of(ProblemCode.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json.");
            default -> Problem.ofStatus(status, Response.Status.fromStatusCode(status) == null
                    ? "Client error" : Response.Status.fromStatusCode(status).getReasonPhrase());
        };
        Response.ResponseBuilder answer = builder(problem, json);
        if (status == 405) {
            answer.header(HttpHeaders.ALLOW, e.getResponse().getHeaderString(HttpHeaders.ALLOW));
        }
        return answer.build();
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (isUnavailable(e)) {
            LOG.warnf("A backing service failed: %s", e.toString());
            return builder(Problem.of(ProblemCode.SERVICE_UNAVAILABLE, "A backing service is not answering; try again shortly. A change sent again with the same order token or Idempotency-Key takes effect once."), json)
                    .header("Retry-After", 1).build();
        }
        String incident = UUID.randomUUID().toString();
        LOG.errorf(e, "Unexpected failure, incident %s", incident);
        return respond(Problem.of(ProblemCode.INTERNAL_ERROR, "The request failed unexpectedly; quote incident " + incident + " when reporting it.")
                .with("incident", incident));
    }

    private Response unauthorized() {
        return builder(Problem.signInRequired(), json).header(HttpHeaders.WWW_AUTHENTICATE, Problem.BASIC_CHALLENGE).build();
    }

    private static Problem badJson(JsonProcessingException e) {
        if (isSyntaxError(e)) {
            return Problem.of(ProblemCode.MALFORMED_JSON, "The body is not well-formed JSON.");
        }
        if (e instanceof StreamConstraintsException) {
            return Problem.of(ProblemCode.MALFORMED_JSON, "The JSON body is nested too deeply or is too large.");
        }
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            String field = path(mapping.getPath());
            String message;
            if (e instanceof UnrecognizedPropertyException) {
                message = "is not a known field";
            } else if (e instanceof InvalidFormatException || e instanceof MismatchedInputException) {
                message = "has the wrong type or format";
            } else {
                message = "is not valid";
            }
            return Problem.invalid(List.of(new FieldError(field, message)));
        }
        if (e instanceof MismatchedInputException) {
            return Problem.of(ProblemCode.MALFORMED_JSON, "The body must be a JSON object.");
        }
        return Problem.of(ProblemCode.MALFORMED_JSON, "The body is not well-formed JSON.");
    }

    /** A syntax error, also when Jackson reports it wrapped with the field it was reading. */
    private static boolean isSyntaxError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonParseException) {
                return true;
            }
        }
        return false;
    }

    private static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    /** Whether a failure is a backing service's (PostgreSQL or Redis not answering), which is answered 503. */
    public static boolean isUnavailable(Throwable e) {
        if (RedisErrors.isConnectionLost(e)) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException || t instanceof VertxException || t instanceof java.net.SocketException
                    || t instanceof jakarta.persistence.PersistenceException || t instanceof java.util.concurrent.TimeoutException
                    // What a Redis call that outlived quarkus.redis.timeout fails with (Redis paused or overloaded).
                    || t instanceof io.smallrye.mutiny.TimeoutException
                    // A commit the database dropped: the transaction manager keeps the database's error as a suppressed one.
                    || Arrays.stream(t.getSuppressed()).anyMatch(ProblemMappers::isUnavailable)) {
                return true;
            }
        }
        return false;
    }

    private Response respond(Problem problem) {
        return builder(problem, json).build();
    }

    /** A problem answer, for the places that answer one without throwing (an exception mapper of their own). */
    public static Response.ResponseBuilder builder(Problem problem, ObjectMapper json) {
        try {
            return Response.status(problem.status())
                    .type(Problem.MEDIA_TYPE)
                    .header(HttpHeaders.CACHE_CONTROL, "no-store")
                    .entity(json.writeValueAsBytes(problem));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A problem detail always serialises", e);
        }
    }
}
