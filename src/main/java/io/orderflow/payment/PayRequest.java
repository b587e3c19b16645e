package io.orderflow.payment;

import java.util.List;
import java.util.regex.Pattern;

import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;

/** The optional body of {@code POST /orders/{id}/pay}: {@code {"paymentMethod":"pm_card_visa"}}. */
public record PayRequest(String paymentMethod) {

    private static final Pattern METHOD = Pattern.compile("pm_[A-Za-z0-9_]{1,61}");

    /** The method named, or null for the default; a malformed one is refused before anything happens. */
    public static String methodOf(PayRequest request) {
        if (request == null || request.paymentMethod() == null) {
            return null;
        }
        if (!METHOD.matcher(request.paymentMethod()).matches()) {
            throw new ProblemException(Problem.invalid(List.of(new FieldError("paymentMethod",
                    "must be a payment method id such as pm_card_visa"))));
        }
        return request.paymentMethod();
    }
}
