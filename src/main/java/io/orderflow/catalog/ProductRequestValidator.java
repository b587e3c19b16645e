package io.orderflow.catalog;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;
import jakarta.validation.groups.Default;

import io.orderflow.shared.money.CurrencyConfig;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.FieldErrors;

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
        List<FieldError> errors = FieldErrors.of(validator, request);
        if (request.delta() != null && request.delta() == 0) {
            errors.add(new FieldError("delta", StockAdjustmentRequest.DELTA_RANGE));
        }
        FieldErrors.refuseAny(errors);
        return request;
    }

    private ProductRequest checkedProduct(ProductRequest request, Class<?> use) {
        List<FieldError> errors = FieldErrors.of(validator, request, Default.class, use);
        checkCurrencyAndPrice(request, errors);
        FieldErrors.refuseAny(errors);
        return request;
    }

    /** Products are sold in the currencies orders may be placed in, at prices exact in their minor units. */
    private void checkCurrencyAndPrice(ProductRequest request, List<FieldError> errors) {
        String currency = request.currency();
        if (currency == null || FieldErrors.has(errors, "currency")) {
            return;
        }
        Optional<FieldError> refused = currencies.refusal("currency", currency);
        if (refused.isEmpty() && request.price() != null && !FieldErrors.has(errors, "price")) {
            refused = Money.inexact("price", request.price(), currency);
        }
        refused.ifPresent(errors::add);
    }
}
