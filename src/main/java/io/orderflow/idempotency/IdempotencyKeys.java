package io.orderflow.idempotency;

import java.util.List;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/**
 * Reads the Idempotency-Key header: 1 to 255 characters, either bare (visible ASCII, no spaces)
 * or an RFC 8941 quoted string, whose unquoted value is the key ({@code "abc"} is {@code abc}).
 */
public final class IdempotencyKeys {

    public static final String HEADER = "Idempotency-Key";
    private static final int MAX_LENGTH = 255;

    private IdempotencyKeys() {
    }

    /** The key, or null when the request has none. */
    public static String parse(List<String> headers) {
        if (headers == null || headers.isEmpty()) {
            return null;
        }
        if (headers.size() > 1) {
            throw invalid("Send one Idempotency-Key header, not " + headers.size() + ".");
        }
        return canonical(headers.get(0));
    }

    /** The unquoted key of one header value. */
    static String canonical(String value) {
        String key = value.startsWith("\"") ? unquote(value) : bare(value);
        if (key.isEmpty() || key.length() > MAX_LENGTH) {
            throw invalid("An Idempotency-Key has 1 to " + MAX_LENGTH + " characters.");
        }
        return key;
    }

    private static String bare(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw invalid("An Idempotency-Key is visible ASCII without spaces, or a quoted string.");
            }
        }
        return value;
    }

    /** An RFC 8941 sf-string: printable ASCII between quotes, with only \" and \\ escaped. */
    private static String unquote(String value) {
        StringBuilder key = new StringBuilder();
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\') {
                if (i + 1 >= value.length() || (value.charAt(i + 1) != '"' && value.charAt(i + 1) != '\\')) {
                    throw invalid("A quoted Idempotency-Key may escape only \\\" and \\\\.");
                }
                key.append(value.charAt(++i));
            } else if (c == '"') {
                if (i != value.length() - 1) {
                    throw invalid("A quoted Idempotency-Key ends at its closing quote.");
                }
                return key.toString();
            } else if (c < 0x20 || c > 0x7e) {
                throw invalid("A quoted Idempotency-Key holds printable ASCII only.");
            } else {
                key.append(c);
            }
        }
        throw invalid("A quoted Idempotency-Key needs its closing quote.");
    }

    static ProblemException missing() {
        return new ProblemException(Problem.of(ProblemCode.IDEMPOTENCY_KEY_MISSING, "This request changes money or goods: send an Idempotency-Key header, and the same one when you retry."));
    }

    private static ProblemException invalid(String detail) {
        return new ProblemException(Problem.of(ProblemCode.IDEMPOTENCY_KEY_INVALID, detail));
    }
}
