package io.orderflow.shared.problem;

/** One field's complaint in a 400 {@code validation-failed} answer, e.g. {@code items[0].quantity}. */
public record FieldError(String field, String message) {
}
