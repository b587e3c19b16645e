package io.orderflow.shared.problem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;

/** A request's wrong fields, collected all at once and refused in one 400 {@code validation-failed} answer. */
public final class FieldErrors {

    private FieldErrors() {
    }

    /** What Bean Validation finds wrong with the request; a missing body is refused at once. */
    public static <T> List<FieldError> of(Validator validator, T request, Class<?>... groups) {
        if (request == null) {
            throw new ProblemException(Problem.invalid(List.of(new FieldError("body", "is required"))));
        }
        List<FieldError> errors = new ArrayList<>();
        for (ConstraintViolation<T> violation : validator.validate(request, groups)) {
            errors.add(new FieldError(fieldName(violation), violation.getMessage()));
        }
        return errors;
    }

    /** Whether a field already has a complaint, so that a further check of it would only repeat it. */
    public static boolean has(List<FieldError> errors, String field) {
        return errors.stream().anyMatch(error -> error.field().equals(field));
    }

    /** Refuses the request when any field is wrong, naming every one, in a stable order. */
    public static void refuseAny(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
            throw new ProblemException(Problem.invalid(errors));
        }
    }

    /** {@code items[0].quantity}; a null element of a list is reported at its index. */
    private static String fieldName(ConstraintViolation<?> violation) {
        return violation.getPropertyPath().toString().replace(".<list element>", "");
    }
}
