package io.orderflow.web;

import java.math.BigDecimal;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestForm;

import io.orderflow.order.Money;
import io.orderflow.order.OrderConfig;
import io.orderflow.order.OrderRequest;
import io.orderflow.order.OrderRequests;
import io.orderflow.order.OrderService;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.orderflow.token.OrderTokens;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * The web checkout: a cart form carrying a one-time order token, posted back and answered with a
 * 303 to the order's page (POST, redirect, GET). Submitting the same form again, from a double
 * click, a second tab or the back button, uses the same token and so lands on the same order.
 */
@Path("/checkout")
@FormAuthentication
@Authenticated
public class CheckoutPage {

    static final int ROWS = 3;
    private static final Pattern WHOLE_NUMBER = Pattern.compile("\\d{1,9}");
    private static final Pattern ITEM_FIELD = Pattern.compile("items\\[(\\d+)\\]\\.(\\w+)");

    private final OrderTokens tokens;
    private final OrderService orders;
    private final OrderRequests requests;
    private final OrderConfig config;
    private final Pages pages;
    private final SecurityIdentity identity;

    public CheckoutPage(OrderTokens tokens, OrderService orders, OrderRequests requests, OrderConfig config, Pages pages,
            SecurityIdentity identity) {
        this.pages = pages;
        this.tokens = tokens;
        this.orders = orders;
        this.requests = requests;
        this.config = config;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show() {
        List<CheckoutForm.Row> rows = new ArrayList<>();
        rows.add(new CheckoutForm.Row("", "1", ""));
        while (rows.size() < ROWS) {
            rows.add(new CheckoutForm.Row("", "", ""));
        }
        String currency = config.currencies().contains("CNY") ? "CNY" : first();
        try {
            return page(200, freshToken(), currency, rows, Map.of(), null);
        } catch (ProblemException tooMany) {
            return page(tooMany.problem().status(), null, currency, rows, Map.of(), tooMany.problem().detail());
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response submit(@RestForm String token, @RestForm String currency, @RestForm("sku") List<String> skus,
            @RestForm("quantity") List<String> quantities, @RestForm("unitPrice") List<String> unitPrices) {
        List<CheckoutForm.Row> rows = rows(skus, quantities, unitPrices);
        String chosen = currency == null ? "" : currency;
        Map<String, String> errors = new TreeMap<>();
        List<Integer> used = new ArrayList<>();
        List<OrderRequest.Item> items = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            CheckoutForm.Row row = rows.get(i);
            if (row.isBlank()) {
                continue;
            }
            used.add(i);
            items.add(new OrderRequest.Item(row.sku().isBlank() ? null : row.sku().trim(),
                    number(row.quantity(), WHOLE_NUMBER, "quantity", i, errors) == null ? null
                            : Integer.valueOf(row.quantity().trim()),
                    number(row.unitPrice(), Money.DECIMAL, "unitPrice", i, errors) == null ? null : new BigDecimal(row.unitPrice().trim())));
        }
        if (items.isEmpty()) {
            errors.put("items", "Add at least one item.");
        }
        if (!errors.isEmpty()) {
            // Name every mistake at once: what could not be read as a number, and what the order rules refuse.
            try {
                requests.validate(new OrderRequest(chosen, items));
            } catch (ProblemException refused) {
                fieldErrors(refused, used).forEach(errors::putIfAbsent);
            }
            return page(400, token, chosen, rows, errors, "Please correct the fields marked below.");
        }
        try {
            OrderService.Creation created = orders.create(Caller.of(identity), token, new OrderRequest(chosen, items));
            return Response.seeOther(URI.create(OrderPage.PATH + created.order().id())).build();
        } catch (ProblemException refused) {
            return refusal(refused, token, chosen, rows, used);
        }
    }

    private Response refusal(ProblemException refused, String token, String currency, List<CheckoutForm.Row> rows, List<Integer> used) {
        String code = refused.problem().code();
        return switch (code) {
            case "validation-failed" -> page(400, token, currency, rows, fieldErrors(refused, used), "Please correct the fields marked below.");
            case "order-token-invalid", "order-token-missing" -> page(200, freshToken(), currency, rows, Map.of(),
                    "This form had expired. Your cart is kept: check it and place the order again.");
            case "order-token-reused" -> page(200, freshToken(), currency, rows, Map.of(),
                    "This form was already used for another order. Your cart is kept: place it as a new order if you wish.");
            case "order-token-in-use" -> page(200, token, currency, rows, Map.of(),
                    "Your order is still being placed. Submit again in a moment to see it.");
            default -> throw refused;
        };
    }

    /** The API's field names ({@code items[1].quantity}) as the rows of the page they came from. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> fieldErrors(ProblemException refused, List<Integer> used) {
        Map<String, String> errors = new TreeMap<>();
        for (FieldError error : (List<FieldError>) refused.problem().members().getOrDefault("errors", List.of())) {
            String field = error.field();
            Matcher item = ITEM_FIELD.matcher(field);
            if (item.matches() && Integer.parseInt(item.group(1)) < used.size()) {
                field = item.group(2) + used.get(Integer.parseInt(item.group(1)));
            }
            errors.put(field, sentence(error.message()));
        }
        return errors;
    }

    private static String number(String text, Pattern format, String field, int row, Map<String, String> errors) {
        if (text.isBlank()) {
            return null;
        }
        if (!format.matcher(text.trim()).matches()) {
            errors.put(field + row, field.equals("quantity") ? "Enter a whole number." : "Enter an amount such as 12.50.");
            return null;
        }
        return text;
    }

    private Response page(int status, String token, String currency, List<CheckoutForm.Row> rows, Map<String, String> errors, String message) {
        List<CheckoutForm.Row> shown = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            shown.add(rows.get(i).withErrors(errors, i));
        }
        CheckoutForm form = new CheckoutForm(token, currency, shown, List.copyOf(new TreeSet<>(config.currencies())), errors, message);
        return pages.page(status, "checkout", Map.of("form", form));
    }

    private String freshToken() {
        return tokens.issue(Caller.of(identity).name()).token();
    }

    private String first() {
        return new TreeSet<>(config.currencies()).first();
    }

    private static List<CheckoutForm.Row> rows(List<String> skus, List<String> quantities, List<String> unitPrices) {
        List<CheckoutForm.Row> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(new CheckoutForm.Row(at(skus, i), at(quantities, i), at(unitPrices, i)));
        }
        return rows;
    }

    private static String at(List<String> values, int index) {
        return values != null && index < values.size() && values.get(index) != null ? values.get(index) : "";
    }

    private static String sentence(String message) {
        return Character.toUpperCase(message.charAt(0)) + message.substring(1) + ".";
    }
}
