package io.orderflow.shared.problem;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every problem the service answers with, by its stable {@code code} (the constant's name in kebab case),
 * with the status and title that always go with it. Raised through {@link Problem#of}, read back with
 * {@link #of(String)}.
 */
public enum ProblemCode {

    VALIDATION_FAILED(400, "Invalid request"),
    MALFORMED_JSON(400, "Malformed JSON"),
    MALFORMED_BODY(400, "Malformed body"),
    BAD_REQUEST(400, "Bad request"),
    ORDER_TOKEN_MISSING(400, "Order token missing"),
    IDEMPOTENCY_KEY_MISSING(400, "Idempotency-Key missing"),
    IDEMPOTENCY_KEY_INVALID(400, "Idempotency-Key invalid"),
    INVALID_SIGNATURE(400, "Invalid signature"),
    UNAUTHORIZED(401, "Unauthorized"),
    PAYMENT_DECLINED(402, "Payment declined"),
    FORBIDDEN(403, "Forbidden"),
    CROSS_SITE_REQUEST(403, "Cross-site request"),
    NOT_FOUND(404, "Not found"),
    ORDER_NOT_FOUND(404, "Order not found"),
    PRODUCT_NOT_FOUND(404, "Product not found"),
    RECONCILIATION_NOT_RUN(404, "No reconciliation yet"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    NOT_ACCEPTABLE(406, "Not acceptable"),
    REQUEST_TIMEOUT(408, "Request timeout"),
    INVALID_TRANSITION(409, "Invalid transition"),
    PAYMENT_IN_PROGRESS(409, "Payment in progress"),
    ORDER_TOKEN_IN_USE(409, "Order token in use"),
    IDEMPOTENCY_KEY_IN_USE(409, "Idempotency-Key in use"),
    PRICE_CHANGED(409, "Price changed"),
    OUT_OF_STOCK(409, "Out of stock"),
    INSUFFICIENT_STOCK(409, "Insufficient stock"),
    STOCK_LIMIT_EXCEEDED(409, "Stock limit exceeded"),
    PRODUCT_EXISTS(409, "Product exists"),
    ORDER_TOKEN_INVALID(410, "Order token invalid"),
    IDEMPOTENCY_KEY_EXPIRED(410, "Idempotency-Key expired"),
    PAYLOAD_TOO_LARGE(413, "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type"),
    ORDER_TOKEN_REUSED(422, "Order token reused"),
    PAYMENT_METHOD_NOT_OFFERED(422, "Payment method not offered"),
    SHIPPING_ADDRESS_MISSING(422, "Shipping address missing"),
    IDEMPOTENCY_KEY_REUSED(422, "Idempotency-Key reused"),
    TOO_MANY_TOKENS(429, "Too many order tokens"),
    TOO_MANY_SIGN_IN_FAILURES(429, "Too many failed sign-ins"),
    INTERNAL_ERROR(500, "Internal error"),
    PAYMENT_PROVIDER_ERROR(502, "Payment provider error"),
    PAYMENT_PROVIDER_UNAVAILABLE(502, "Payment provider unavailable"),
    SERVICE_UNAVAILABLE(503, "Service unavailable");

    private static final Map<String, ProblemCode> BY_CODE = Arrays.stream(values())
            .collect(Collectors.toUnmodifiableMap(ProblemCode::code, Function.identity()));

    private final int status;
    private final String title;
    private final String code;

    ProblemCode(int status, String title) {
        this.status = status;
        this.title = title;
        this.code = name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The code as clients read it, e.g. {@code order-not-found}. */
    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The problem a code names; empty for a code of no problem of this service (such as {@code http-408}). */
    public static Optional<ProblemCode> of(String code) {
        return Optional.ofNullable(code).map(BY_CODE::get);
    }
}
