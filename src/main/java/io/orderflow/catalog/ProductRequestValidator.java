package io.orderflow.catalog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;
import jakarta.validation.groups.Default;

import io.orderflow.shared.money.CurrencyConfig;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;

/** Checks staff requests to the catalog completely, naming every wrong field at once, before anything is stored. */
@ApplicationScoped
public class ProductRequestValidator {

    private final Validator validator;
    private final CurrencyConfig currencies;

    public ProductRequestValidator(Validator validator, CurrencyConfig currencies) {
        this.validator = validator;
        this.currencies = currencies;
    }

    public ProductRequest forCreate(ProductRequest request) {
        return checkedProduct(request, ProductRequest.OnCreate.class);
    }

    public ProductRequest forUpdate(ProductRequest request) {
        return checkedProduct(request, ProductRequest.OnUpdate.class);
    }

    public StockAdjustmentRequest adjustment(StockAdjustmentRequest request) {
        List<FieldError> errors = violations(request);
        if (request.delta() != null && request.delta() == 0) {
            errors.add(new FieldError("delta", StockAdjustmentRequest.DELTA_RANGE));
        }
        return checked(request, errors);
    }

    private ProductRequest checkedProduct(ProductRequest request, Class<?> use) {
        List<FieldError> errors = violations(request, Default.class, use);
        checkCurrencyAndPrice(request, errors);
        return checked(request, errors);
    }

    /** Products are sold in the currencies orders may be placed in, at prices exact in their minor units. */
    private void checkCurrencyAndPrice(ProductRequest request, List<FieldError> errors) {
        String currency = request.currency();
        if (currency == null || hasError(errors, "currency")) {
            return;
        }
        if (!currencies.currencies().contains(currency)) {
            errors.add(new FieldError("currency", "must be one of " + String.join(", ", new TreeSet<>(currencies.currencies()))));
        } else if (request.price() != null && !hasError(errors, "price") && !Money.isExact(request.price(), currency)) {
            errors.add(new FieldError("price", "must have at most " + Money.minorDigits(currency) + " decimals in " + currency));
        }
    }

    private <T> List<FieldError> violations(T request, Class<?>... groups) {
        if (request == null) {
            throw new ProblemException(Problem.invalid(List.of(new FieldError("body", "is required"))));
        }
        List<FieldError> errors = new ArrayList<>();
        validator.validate(request, groups).forEach(violation -> errors.add(new FieldError(violation.getPropertyPath().toString(),
                violation.getMessage())));
        return errors;
    }

    private static <T> T checked(T request, List<FieldError> errors) {
        if (!errors.isEmpty()) {
            errors.sort(Comparator.comparing(FieldError::field).thenComparing(FieldError::message));
            throw new ProblemException(Problem.invalid(errors));
        }
        return request;
    }

    private static boolean hasError(List<FieldError> errors, String field) {
        return errors.stream().anyMatch(error -> error.field().equals(field));
    }
}
