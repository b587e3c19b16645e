package io.orderflow.web;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.order.OrderPage;
import io.orderflow.order.OrderQuery;
import io.orderflow.order.OrderService;
import io.orderflow.order.OrderView;
import io.orderflow.shared.http.Paging;
import io.orderflow.shared.http.QueryParameters;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * The staff console's order list, newest first, a page at a time: filtered as {@code GET /orders} filters (state,
 * customer, days of creation in the page's time zone), or one of the operators' views of orders that need someone
 * ({@link ConsoleOrderViews}), with how many orders each state holds. An order number or id found opens that order's
 * page. A value that cannot be a filter shows the page again, 400, saying which and why.
 */
@Path(ConsoleOrderPage.CONSOLE)
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleOrdersPage {

    static final String LIST = ConsoleOrderPage.CONSOLE + "/orders";
    private static final Pattern ORDER_NUMBER = Pattern.compile("[0-9]{1,18}");
    private static final Pattern ORDER_ID = Pattern.compile("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");
    private static final double MINUTES_PER_HOUR = 60;

    /** The list's filters as the form and the page's links send them; absent ones are null or empty. */
    public record Filters(String find, String status, String customer, String createdFrom, String createdTo, String view, String limit) {

        /** The parameters a next page's address keeps, then its cursor. */
        private static final List<String> KEPT = List.of("status", "customer", "createdFrom", "createdTo", "view", "limit", "after");

        /** The address of the page after the cursor: the same filters and page size. */
        String after(String cursor) {
            List<String> values = Arrays.asList(status, customer, createdFrom, createdTo, view, limit, cursor);
            return LIST + "?" + IntStream.range(0, KEPT.size()).filter(parameter -> !absent(values.get(parameter)))
                    .mapToObj(parameter -> KEPT.get(parameter) + "=" + URLEncoder.encode(values.get(parameter), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
        }
    }

    /** A link of the page's tabs: an operator's view, or every order. */
    public record Tab(String href, String label, boolean current) {
    }

    /** What the list shows: its heading, its orders and the address of the next page (null on the last). */
    private record Shown(String heading, List<ConsoleOrderViews.Listed> orders, String next) {
    }

    private final OrderService orders;
    private final ConsoleOrderViews views;
    private final ConsoleOrdersConfig config;
    private final Pages pages;
    private final PageText text;
    private final PageLocale locale;
    private final SecurityIdentity identity;

    public ConsoleOrdersPage(OrderService orders, ConsoleOrderViews views, ConsoleOrdersConfig config, Pages pages, PageText text,
            PageLocale locale, SecurityIdentity identity) {
        this.orders = orders;
        this.views = views;
        this.config = config;
        this.pages = pages;
        this.text = text;
        this.locale = locale;
        this.identity = identity;
    }

    /** The console opens on the order list. */
    @GET
    @Operation(hidden = true)
    public Response console() {
        return Response.seeOther(URI.create(LIST)).build();
    }

    @GET
    @Path("orders")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response list(@RestQuery String find, @RestQuery String status, @RestQuery String customer, @RestQuery String createdFrom,
            @RestQuery String createdTo, @RestQuery String view, @RestQuery String limit, @RestQuery String after) {
        Filters filters = new Filters(find, status, customer, createdFrom, createdTo, view, limit);
        try {
            if (!absent(find)) {
                return find(filters, find.strip());
            }
            Shown shown = absent(view) ? filtered(filters, after) : view(filters, after);
            return page(200, filters, shown, null, null);
        } catch (ProblemException invalid) {
            List<FieldError> wrong = invalid.problem().listed(Problem.ERRORS, FieldError.class);
            if (wrong.isEmpty()) {
                throw invalid;
            }
            String field = wrong.get(0).field();
            return page(400, filters, null, field, text.get("console_orders_invalid_" + field));
        }
    }

    /** The order with the number or id, opened; the page again, 404, when there is none. */
    private Response find(Filters filters, String wanted) {
        Caller caller = Caller.of(identity);
        Optional<UUID> found;
        if (ORDER_NUMBER.matcher(wanted).matches() && Long.parseLong(wanted) > 0) {
            found = orders.list(caller, new OrderQuery(null, null, wanted, null, null), "1", null).items().stream().map(OrderView::id).findFirst();
        } else if (ORDER_ID.matcher(wanted).matches()) {
            found = Optional.of(UUID.fromString(wanted)).filter(id -> exists(caller, id));
        } else {
            throw QueryParameters.invalid("find", "must be an order number or an order id");
        }
        return found.map(id -> Response.seeOther(URI.create(ConsoleOrderPage.PATH + id)).build())
                .orElseGet(() -> page(404, filters, null, null, text.get("console_orders_notFound", wanted)));
    }

    private boolean exists(Caller caller, UUID id) {
        try {
            orders.get(caller, id.toString());
            return true;
        } catch (ProblemException notFound) {
            return false;
        }
    }

    /** The orders {@code GET /orders} lists with the form's filters; a day "to" includes its whole day. */
    private Shown filtered(Filters filters, String after) {
        ZoneId zone = locale.zone();
        OrderQuery query = new OrderQuery(filters.status(), absent(filters.customer()) ? null : filters.customer().strip(), null,
                dayStart("createdFrom", filters.createdFrom(), zone, 0), dayStart("createdTo", filters.createdTo(), zone, 1));
        OrderPage page = orders.list(Caller.of(identity), query, filters.limit(), after);
        List<ConsoleOrderViews.Listed> listed = page.items().stream().map(order -> new ConsoleOrderViews.Listed(order.id(), order.orderNumber(),
                order.status().wireName(), order.customer(), order.totalAmount(), order.currency(), order.createdAt())).toList();
        boolean anyFilter = Stream.of(filters.status(), filters.customer(), filters.createdFrom(), filters.createdTo()).anyMatch(value -> !absent(value));
        return new Shown(text.get(anyFilter ? "console_orders_matching" : "console_orders_all"), listed,
                page.next() == null ? null : filters.after(page.next()));
    }

    /** An operator's view, paged as the API pages: one more row than the page tells whether another follows. */
    private Shown view(Filters filters, String after) {
        ConsoleOrderViews.View view = ConsoleOrderViews.View.named(filters.view())
                .orElseThrow(() -> QueryParameters.invalid("view", "must be one of the views the page links to"));
        int size = Paging.limit(filters.limit());
        List<ConsoleOrderViews.Listed> found = views.list(view, Paging.after(after, UUID::fromString), size + 1);
        if (found.size() <= size) {
            return new Shown(label(view), found, null);
        }
        List<ConsoleOrderViews.Listed> listed = found.subList(0, size);
        return new Shown(label(view), listed, filters.after(Paging.cursor(listed.get(size - 1).id().toString())));
    }

    /** The instant the day starts in the page's time zone, {@code days} later, as the API reads instants; null without a day. */
    private static String dayStart(String field, String day, ZoneId zone, int days) {
        if (absent(day)) {
            return null;
        }
        try {
            return LocalDate.parse(day.strip()).plusDays(days).atStartOfDay(zone).toInstant().toString();
        } catch (DateTimeException notADay) {
            throw QueryParameters.invalid(field, "must be a day such as 2026-01-31");
        }
    }

    private String label(ConsoleOrderViews.View view) {
        return text.get("console_orders_view_" + view.name, config.paidNotShippedAfter().toMinutes() / MINUTES_PER_HOUR);
    }

    private Response page(int status, Filters filters, Shown shown, String invalid, String message) {
        Map<String, Object> data = new HashMap<>();
        data.put("filters", filters);
        data.put("statuses", Stream.of(OrderStatus.values()).map(OrderStatus::wireName).toList());
        data.put("counts", views.counts());
        data.put("tabs", Stream.concat(Stream.of(new Tab(LIST, text.get("console_orders_all"), absent(filters.view()))),
                Stream.of(ConsoleOrderViews.View.values()).map(view -> new Tab(LIST + "?view=" + view.name, label(view),
                        view.name.equals(filters.view())))).toList());
        data.put("shown", shown);
        data.put("invalid", invalid);
        data.put("message", message);
        return pages.page(status, "console-orders", data);
    }

    private static boolean absent(String value) {
        return value == null || value.isBlank();
    }
}
