package io.orderflow.order;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;

import io.orderflow.shared.money.CurrencyConfig;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;

/** Checks an order request completely, before anything is consumed or stored, and canonicalises it. */
@ApplicationScoped
public class OrderRequestValidator {

    private final Validator validator;
    private final CurrencyConfig config;

    public OrderRequestValidator(Validator validator, CurrencyConfig config) {
        this.validator = validator;
        this.config = config;
    }

    public NewOrder validate(OrderRequest request) {
        if (request == null) {
            throw new ProblemException(Problem.invalid(List.of(new FieldError("body", "is required"))));
        }
        List<FieldError> errors = new ArrayList<>();
        for (ConstraintViolation<OrderRequest> violation : validator.validate(request)) {
            errors.add(new FieldError(fieldName(violation), violation.getMessage()));
        }
        checkCurrency(request, errors);
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparing(FieldError::field));
            throw new ProblemException(Problem.invalid(errors));
        }
        return canonical(request);
    }

    /** The currency must be accepted here, and each price exact in its minor units; checked beside the other fields. */
    private void checkCurrency(OrderRequest request, List<FieldError> errors) {
        String currency = request.currency();
        if (currency == null || errors.stream().anyMatch(error -> error.field().equals("currency"))) {
            return;
        }
        if (!config.currencies().contains(currency)) {
            errors.add(new FieldError("currency", "must be one of " + String.join(", ", new TreeSet<>(config.currencies()))));
            return;
        }
        for (int i = 0; request.items() != null && i < request.items().size(); i++) {
            OrderRequest.Item item = request.items().get(i);
            if (item != null && item.unitPrice() != null && !Money.isExact(item.unitPrice(), currency)) {
                errors.add(new FieldError("items[" + i + "].unitPrice",
                        "must have at most " + Money.minorDigits(currency) + " decimals in " + currency));
            }
        }
    }

    private static NewOrder canonical(OrderRequest request) {
        String currency = request.currency();
        return NewOrder.of(currency, request.items().stream()
                .map(item -> new NewOrder.Line(item.sku(), item.quantity(),
                        item.unitPrice() == null ? null : Money.normalize(item.unitPrice(), currency)))
                .toList());
    }

    /** {@code items[0].quantity}; a null element of a list is reported at its index. */
    private static String fieldName(ConstraintViolation<?> violation) {
        return violation.getPropertyPath().toString().replace(".<list element>", "");
    }
}
