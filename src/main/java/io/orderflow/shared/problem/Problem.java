package io.orderflow.shared.problem;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** An RFC 9457 problem detail with a stable machine-readable {@code code}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({ "type", "title", "status", "detail", "code" })
public record Problem(String type, String title, int status, String detail, String code,
        @JsonIgnore Map<String, Object> extensions) {

    public static final String MEDIA_TYPE = "application/problem+json";
    /** The WWW-Authenticate challenge of a 401 (the realm is quarkus.http.auth.realm's). */
    public static final String BASIC_CHALLENGE = "Basic realm=\"orders\"";
    /** The member of a {@code validation-failed} answer that lists the wrong fields. */
    public static final String ERRORS = "errors";
    /** The member of a {@code price-changed} or {@code out-of-stock} answer that lists the items concerned. */
    public static final String ITEMS = "items";
    /** A price-changed answer's lines that are short of stock as well (sku, requested, available). */
    public static final String SHORTAGES = "shortages";
    private static final long MIB = 1024 * 1024;

    public static Problem of(ProblemCode code, String detail) {
        return create(code.status(), code.code(), code.title(), detail);
    }

    /** A client error the service has no code of its own for, named by its status ({@code http-408}). */
    static Problem ofStatus(int status, String title) {
        return create(status, "http-" + status, title, "The request was refused.");
    }

    /** What a request without valid credentials is told, with {@link #BASIC_CHALLENGE} in its WWW-Authenticate. */
    public static Problem signInRequired() {
        return of(ProblemCode.UNAUTHORIZED, "Sign in with HTTP Basic credentials.");
    }

    /** What a caller whose role may not use an endpoint is told. */
    public static Problem forbidden() {
        return of(ProblemCode.FORBIDDEN, "Your role may not do this.");
    }

    /** A 413 {@code payload-too-large} answer quoting the configured limit. */
    public static Problem tooLarge(long maxBytes) {
        String limit = maxBytes % MIB == 0 ? maxBytes / MIB + " MiB" : maxBytes % 1024 == 0 ? maxBytes / 1024 + " KiB" : maxBytes + " bytes";
        return of(ProblemCode.PAYLOAD_TOO_LARGE, "The request body is larger than " + limit + ".");
    }

    private static Problem create(int status, String code, String title, String detail) {
        return new Problem("/problems/" + code, title, status, detail, code, new LinkedHashMap<>());
    }

    /** A 400 {@code validation-failed} answer naming each field that is wrong. */
    public static Problem invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + " " + errors.get(0).message() + "."
                : errors.size() + " fields are not valid; see errors.";
        return of(ProblemCode.VALIDATION_FAILED, detail).with(ERRORS, errors);
    }

    public Problem with(String member, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extensions);
        more.put(member, value);
        return new Problem(type, title, status, detail, code, more);
    }

    /** A member that lists values of one type, each checked to be of it; empty when the member is absent. */
    public <T> List<T> listed(String member, Class<T> type) {
        return extensions.get(member) instanceof List<?> values ? values.stream().map(type::cast).toList() : List.of();
    }

    @JsonAnyGetter
    public Map<String, Object> members() {
        return extensions;
    }
}
