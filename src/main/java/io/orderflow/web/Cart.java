package io.orderflow.web;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import io.orderflow.customer.ShippingAddress;
import io.orderflow.order.OrderRequest;
import io.orderflow.shared.money.Money;

/**
 * The cart as the checkout form posts it: for each product its sku, the price and currency the page
 * showed, and the quantity typed. Ordering with the price that was shown is what lets the server
 * tell the customer that a price changed after the page was loaded.
 */
record Cart(List<Item> items) {

    static final int MAX_QUANTITY = 1000;
    private static final Pattern QUANTITY = Pattern.compile("\\d{1,4}");

    /** One product of the form, as posted. */
    record Item(String sku, String quantity, String price, String currency) {

        /** The quantity typed, 0 when left blank; null when it is not a whole number from 0 to 1000. */
        Integer count() {
            String typed = quantity.trim();
            if (typed.isEmpty()) {
                return 0;
            }
            return QUANTITY.matcher(typed).matches() && Integer.parseInt(typed) <= MAX_QUANTITY ? Integer.parseInt(typed) : null;
        }

        /** In the order, or meant to be: any quantity but 0, also one that cannot be read. */
        boolean isChosen() {
            Integer count = count();
            return count == null || count > 0;
        }

        BigDecimal shownPrice() {
            return Money.DECIMAL.matcher(price).matches() ? new BigDecimal(price) : null;
        }

        /** Quantity times price, for a cart the order rules have accepted. */
        BigDecimal amount() {
            return shownPrice().multiply(BigDecimal.valueOf(count()));
        }

        /** Quantity times price at the currency's scale ({@code 25.00}). */
        String subtotal() {
            return Money.format(amount(), currency);
        }
    }

    static Cart empty() {
        return new Cart(List.of());
    }

    /** The form's parallel lists, one entry per product; a missing entry counts as empty. */
    static Cart posted(List<String> skus, List<String> quantities, List<String> prices, List<String> currencies) {
        List<Item> items = new ArrayList<>();
        for (int i = 0; skus != null && i < skus.size(); i++) {
            items.add(new Item(at(skus, i), at(quantities, i), at(prices, i), at(currencies, i)));
        }
        return new Cart(List.copyOf(items));
    }

    Optional<Item> item(String sku) {
        return items.stream().filter(item -> item.sku().equals(sku)).findFirst();
    }

    List<Item> chosen() {
        return items.stream().filter(Item::isChosen).toList();
    }

    /** What is wrong with each chosen item before the order rules are asked, by sku. */
    Map<String, Phrase> itemErrors() {
        Map<String, Phrase> errors = new LinkedHashMap<>();
        for (Item item : chosen()) {
            if (item.count() == null) {
                errors.put(item.sku(), Phrase.of("cart_wholeNumber", MAX_QUANTITY));
            } else if (item.shownPrice() == null) {
                errors.put(item.sku(), Phrase.of("cart_unreadablePrice"));
            }
        }
        return errors;
    }

    /** What is wrong with the cart as a whole, or null. */
    Phrase cartError() {
        if (chosen().isEmpty()) {
            return Phrase.of("cart_chooseOne");
        }
        if (currencies().size() > 1) {
            return Phrase.of("cart_oneCurrency", String.join(", ", currencies()));
        }
        return null;
    }

    /** The order the chosen items make, each at the price the page showed, to the address; for a cart without errors. */
    OrderRequest request(ShippingAddress address) {
        List<OrderRequest.Item> lines = chosen().stream().map(item -> new OrderRequest.Item(item.sku(), item.count(), item.shownPrice())).toList();
        return new OrderRequest(currencies().get(0), lines, address);
    }

    /** The total at the shown prices ({@code 25.00}), in {@link #currency()}; for a cart the order rules have accepted. */
    String total() {
        return Money.format(chosen().stream().map(Item::amount).reduce(BigDecimal.ZERO, BigDecimal::add), currency());
    }

    /** The one currency of the chosen items; for a cart the order rules have accepted. */
    String currency() {
        return currencies().get(0);
    }

    /** The same cart showing these prices, by sku, instead of the ones it was posted with. */
    Cart repriced(Map<String, String> prices) {
        return new Cart(items.stream()
                .map(item -> new Item(item.sku(), item.quantity(), prices.getOrDefault(item.sku(), item.price()), item.currency()))
                .toList());
    }

    private List<String> currencies() {
        return chosen().stream().map(Item::currency).distinct().sorted().toList();
    }


    private static String at(List<String> values, int index) {
        return values != null && index < values.size() && values.get(index) != null ? values.get(index) : "";
    }
}
