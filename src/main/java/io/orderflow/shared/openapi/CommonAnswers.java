package io.orderflow.shared.openapi;

import java.util.List;
import java.util.Map;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;

import io.orderflow.shared.problem.Problem;

/**
 * Completes the document with what holds for whole kinds of operations rather than for one, so no
 * resource repeats it: an error answer declared without content is a problem detail; a secured
 * operation may answer 401, and 429 when sign-ins are throttled, and one that changes state 403 when a
 * browser sent it for another site; any may be asked for a type it
 * does not answer in (406); a body may be refused as too large or of the wrong type; any refuses a
 * query parameter it does not take (400); and any operation may find a backing service down, or the service at capacity (503,
 * nothing changed). Answers an operation declares itself are left as they are, or completed.
 */
public class CommonAnswers implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI document) {
        if (document.getPaths() == null) {
            return;
        }
        document.getPaths().getPathItems().values().forEach(path -> path.getOperations().forEach(this::complete));
    }

    private void complete(PathItem.HttpMethod method, Operation operation) {
        APIResponses responses = operation.getResponses();
        List<SecurityRequirement> security = operation.getSecurity();
        // A provider's signed notification signs no one in: its signature is checked as part of the body (400).
        if (security != null && !security.isEmpty() && security.stream().noneMatch(only -> only.hasScheme(ApiDocument.PROVIDER_SIGNATURE))) {
            addIfAbsent(responses, "401", "`unauthorized`: no or wrong credentials; see WWW-Authenticate", null);
            signInRefusal(responses);
            if (method != PathItem.HttpMethod.GET) {
                addOrAppend(responses, "403", "`cross-site-request`: sent with Basic credentials or the session cookie by a browser "
                        + "for another site, or as a form or text; nothing was done", null);
            }
        }
        if (method == PathItem.HttpMethod.POST || method == PathItem.HttpMethod.PUT) {
            addIfAbsent(responses, "408", "`request-timeout`: no byte of the body arrived for 5 s; the connection closes", null);
            addIfAbsent(responses, "413", "`payload-too-large`: the body is over 1 MiB", null);
            addIfAbsent(responses, "415", "`unsupported-media-type`: a multipart body, or a body that is not application/json", null);
        }
        addOrAppend(responses, "400", "`validation-failed`: a query parameter this operation does not take (errors names it)", null);
        addIfAbsent(responses, "406", "`not-acceptable`: the Accept header allows no type this operation answers in", null);
        addIfAbsent(responses, "503", "`service-unavailable`: PostgreSQL or Redis is not answering, or the service is at capacity and did nothing of "
                + "the request; retry after Retry-After, a change "
                + "with the same order token or Idempotency-Key, which makes it take effect once", Map.of("Retry-After", retryAfter()));
        responses.getAPIResponses().forEach((status, response) -> {
            if (isError(status) && response.getContent() == null && response.getRef() == null) {
                response.setContent(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE, OASFactory.createMediaType()
                        .schema(OASFactory.createSchema().ref(ApiDocument.PROBLEM))));
            }
        });
    }

    private static void addIfAbsent(APIResponses responses, String status, String description, Map<String, Header> headers) {
        if (!responses.hasAPIResponse(status)) {
            APIResponse response = OASFactory.createAPIResponse().description(description);
            if (headers != null) {
                response.setHeaders(headers);
            }
            responses.addAPIResponse(status, response);
        }
    }

    /** Basic credentials from an address with too many recent failures for the user are refused before they are checked. */
    private static void signInRefusal(APIResponses responses) {
        addOrAppend(responses, "429", "`too-many-sign-in-failures`: too many wrong passwords lately for this user from this address; "
                + "retry after Retry-After", Map.of("Retry-After", retryAfter()));
    }

    /** An answer the operation may also give for its own reasons: then both are described. */
    private static void addOrAppend(APIResponses responses, String status, String description, Map<String, Header> headers) {
        APIResponse declared = responses.getAPIResponse(status);
        if (declared == null) {
            addIfAbsent(responses, status, description, headers);
        } else {
            declared.setDescription(declared.getDescription() + "; or " + description);
        }
    }

    private static Header retryAfter() {
        return OASFactory.createHeader().description("Seconds to wait before retrying")
                .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER));
    }

    private static boolean isError(String status) {
        return status.startsWith("4") || status.startsWith("5");
    }
}
