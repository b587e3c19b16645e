package io.orderflow.web;

import java.math.BigDecimal;
import java.util.Map;

import io.orderflow.catalog.ProductRequest;
import io.orderflow.catalog.ProductView;
import io.orderflow.catalog.StockAdjustmentRequest;

/**
 * A product's fields as the console's forms post them, kept as typed so that a refused form shows them again. A number
 * that does not read as one is put in {@code unreadable} (its field, the key of the page's words for it) and sent to the
 * API's rules as missing, so that they name every other mistake of the same submit.
 */
public record ProductForm(String sku, String name, String description, String price, String currency, String onHand, boolean active) {

    /** The form of a new product. */
    static ProductForm blank(String currency) {
        return new ProductForm("", "", "", "", currency, "0", true);
    }

    /** The edit form, filled in with the product as it is. */
    static ProductForm of(ProductView product) {
        return new ProductForm(product.sku(), product.name(), product.description(), product.price(), product.currency(), "", product.active());
    }

    static ProductForm posted(String sku, String name, String description, String price, String currency, String onHand, String active) {
        return new ProductForm(orBlank(sku), orBlank(name), orBlank(description), orBlank(price), orBlank(currency), orBlank(onHand),
                active != null);
    }

    /** The API's request for a new product. */
    ProductRequest forCreate(Map<String, String> unreadable) {
        return new ProductRequest(sku, name, description, amount(unreadable), currency, whole("onHand", onHand, unreadable),
                active);
    }

    /** The API's request for a product's new details: everything but its sku and stock. */
    ProductRequest forUpdate(Map<String, String> unreadable) {
        return new ProductRequest(null, name, description, amount(unreadable), currency, null, active);
    }

    /** The stock form's adjustment, its delta read as {@link #forCreate} reads numbers. */
    static StockAdjustmentRequest adjustment(String delta, String reason, Map<String, String> unreadable) {
        return new StockAdjustmentRequest(whole("delta", orBlank(delta), unreadable), reason);
    }

    private BigDecimal amount(Map<String, String> unreadable) {
        if (price.isBlank()) {
            return null;
        }
        try {
            return new BigDecimal(price.strip());
        } catch (NumberFormatException notAnAmount) {
            unreadable.put("price", "console_products_notAnAmount");
            return null;
        }
    }

    private static Integer whole(String field, String value, Map<String, String> unreadable) {
        if (value.isBlank()) {
            return null;
        }
        try {
            return Integer.valueOf(value.strip());
        } catch (NumberFormatException notAWholeNumber) {
            unreadable.put(field, "console_products_notAWholeNumber");
            return null;
        }
    }

    private static String orBlank(String value) {
        return value == null ? "" : value;
    }
}
