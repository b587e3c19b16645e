package io.orderflow.order;

import java.time.Instant;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.shared.http.QueryParameters;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;

/**
 * The filters of an order list as a client sent them ({@code GET /orders}); each may be null or empty, which leaves
 * it out. They combine: an order is listed when it passes every one given.
 */
public record OrderQuery(String status, String customer, String orderNumber, String createdFrom, String createdTo) {

    /** Every order the caller may see. */
    public static final OrderQuery NONE = new OrderQuery(null, null, null, null, null);

    /** orders.customer is a VARCHAR(255): a bearer token's subject may be that long. */
    private static final int MAX_CUSTOMER_LENGTH = 255;

    /** The filters read, with the orders a caller may see: a customer's list is always their own. */
    record Filter(String customer, OrderStatus status, Long orderNumber, Instant createdFrom, Instant createdTo) {
    }

    /**
     * The filters for this caller: a value that cannot be one is 400 {@code validation-failed} naming its parameter, a
     * customer naming someone else 403 {@code forbidden}.
     */
    Filter filterFor(Caller caller) {
        OrderStatus wanted = absent(status) ? null : status(status);
        String owner = absent(customer) ? null : customer(customer);
        Long number = absent(orderNumber) ? null : QueryParameters.wholeNumber("orderNumber", orderNumber, 1, Long.MAX_VALUE, 0);
        Instant from = QueryParameters.instant("createdFrom", createdFrom);
        Instant to = QueryParameters.instant("createdTo", createdTo);
        if (from != null && to != null && !to.isAfter(from)) {
            throw QueryParameters.invalid("createdTo", "must be later than createdFrom");
        }
        if (!caller.staff()) {
            if (owner != null && !owner.equals(caller.name())) {
                throw new ProblemException(Problem.of(ProblemCode.FORBIDDEN,
                        "Customers list only their own orders: leave customer out, or name yourself."));
            }
            owner = caller.name();
        }
        return new Filter(owner, wanted, number, from, to);
    }

    private static boolean absent(String value) {
        return value == null || value.isEmpty();
    }

    private static OrderStatus status(String status) {
        try {
            return OrderStatus.fromWireName(status);
        } catch (IllegalArgumentException e) {
            throw QueryParameters.invalid("status", "must be one of created, paid, shipped, delivered, cancelled");
        }
    }

    /** A name an order's customer can have; a control character (a NUL would fail PostgreSQL's query) never is in one. */
    private static String customer(String name) {
        if (name.length() > MAX_CUSTOMER_LENGTH || name.chars().anyMatch(Character::isISOControl)) {
            throw QueryParameters.invalid("customer", "must be a user name: 1 to " + MAX_CUSTOMER_LENGTH
                    + " characters, none of them a control character");
        }
        return name;
    }
}
