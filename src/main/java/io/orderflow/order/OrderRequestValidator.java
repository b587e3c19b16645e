package io.orderflow.order;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Validator;

import io.orderflow.customer.ShippingAddress;
import io.orderflow.shared.money.CurrencyConfig;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.FieldErrors;

/** Checks an order request completely, before anything is consumed or stored, and canonicalises it. */
@ApplicationScoped
public class OrderRequestValidator {

    private static final String ADDRESS = "shippingAddress";
    private static final String COUNTRY = ADDRESS + ".country";

    private final Validator validator;
    private final CurrencyConfig config;

    public OrderRequestValidator(Validator validator, CurrencyConfig config) {
        this.validator = validator;
        this.config = config;
    }

    public NewOrder validate(OrderRequest request) {
        List<FieldError> errors = FieldErrors.of(validator, request);
        checkCurrency(request, errors);
        checkCountry(request.shippingAddress(), errors);
        FieldErrors.refuseAny(errors);
        return canonical(request);
    }

    /** The currency must be accepted here, and each price exact in its minor units; checked beside the other fields. */
    private void checkCurrency(OrderRequest request, List<FieldError> errors) {
        String currency = request.currency();
        if (currency == null || FieldErrors.has(errors, "currency")) {
            return;
        }
        Optional<FieldError> refused = config.refusal("currency", currency);
        if (refused.isPresent()) {
            errors.add(refused.get());
            return;
        }
        for (int i = 0; request.items() != null && i < request.items().size(); i++) {
            OrderRequest.Item item = request.items().get(i);
            if (item != null && item.unitPrice() != null) {
                Money.inexact("items[" + i + "].unitPrice", item.unitPrice(), currency).ifPresent(errors::add);
            }
        }
    }

    /** What is wrong with an address alone, named as in an order request ({@code shippingAddress.city}): for a form that reports every mistake at once. */
    public List<FieldError> addressErrors(ShippingAddress address) {
        List<FieldError> errors = new ArrayList<>(FieldErrors.of(validator, address).stream()
                .map(error -> new FieldError(ADDRESS + "." + error.field(), error.message())).toList());
        checkCountry(address, errors);
        return errors;
    }

    private static void checkCountry(ShippingAddress address, List<FieldError> errors) {
        if (address != null && address.country() != null && !FieldErrors.has(errors, COUNTRY) && !ShippingAddress.isCountry(address.country())) {
            errors.add(new FieldError(COUNTRY, "is not an ISO 3166-1 country code"));
        }
    }

    private static NewOrder canonical(OrderRequest request) {
        String currency = request.currency();
        return NewOrder.of(currency, request.items().stream()
                .map(item -> new NewOrder.Line(item.sku(), item.quantity(),
                        item.unitPrice() == null ? null : Money.normalize(item.unitPrice(), currency)))
                .toList(), request.shippingAddress() == null ? null : request.shippingAddress().canonical());
    }
}
