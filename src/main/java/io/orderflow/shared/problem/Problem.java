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

    public static Problem of(int status, String code, String title, String detail) {
        return new Problem("/problems/" + code, title, status, detail, code, new LinkedHashMap<>());
    }

    /** A 400 {@code validation-failed} answer naming each field that is wrong. */
    public static Problem invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + " " + errors.get(0).message() + "."
                : errors.size() + " fields are not valid; see errors.";
        return of(400, "validation-failed", "Invalid request", detail).with("errors", errors);
    }

    public Problem with(String member, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(extensions);
        more.put(member, value);
        return new Problem(type, title, status, detail, code, more);
    }

    @JsonAnyGetter
    public Map<String, Object> members() {
        return extensions;
    }
}
