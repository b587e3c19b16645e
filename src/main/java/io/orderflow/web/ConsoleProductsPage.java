package io.orderflow.web;

import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import io.orderflow.catalog.Catalog;
import io.orderflow.catalog.ProductPage;
import io.orderflow.catalog.ProductRequest;
import io.orderflow.catalog.ProductRequestValidator;
import io.orderflow.catalog.ProductView;
import io.orderflow.catalog.StockAdjustmentRequest;
import io.orderflow.catalog.StockHistoryEntry;
import io.orderflow.catalog.StockHistoryPage;
import io.orderflow.catalog.StockHistoryStore;
import io.orderflow.idempotency.IdempotencyKey;
import io.orderflow.shared.http.Paging;
import io.orderflow.shared.money.CurrencyConfig;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;

/**
 * The catalog in the staff console: every product with its price and stock; a form to add one; and one product's page,
 * with the form to change its details, the form to adjust its stock and its stock history. The forms check by the API's
 * own rules ({@link ProductRequestValidator}), each refused field's words beside it; each is safe to submit twice: a
 * product's details are replaced (the same twice is the same), a sku already taken adds nothing, and the stock form
 * carries a one-time command id, so it adjusts once however often it is sent.
 */
@Path(ConsoleProductsPage.PATH)
@FormAuthentication
@RolesAllowed(Caller.STAFF)
public class ConsoleProductsPage {

    static final String PATH = ConsoleOrderPage.CONSOLE + "/products";
    /** The notices of a form done, by the {@code notice} the page is sent back with. */
    private static final Set<String> DONE = Set.of("created", "saved", "adjusted");
    private static final String NOTICE = "notice";

    /** A line of the stock history as the page reads it. */
    public record Change(Instant at, String kind, String quantity, String actor, String reason, UUID orderId, String order) {
    }

    /** What the stock form shows: the values as posted, their refusals, and its command id. */
    public record StockForm(String delta, String reason, String commandId, Map<String, String> errors) {

        static StockForm fresh() {
            return new StockForm("", "", UUID.randomUUID().toString(), Map.of());
        }
    }

    private final Catalog catalog;
    private final ProductRequestValidator requests;
    private final StockHistoryStore history;
    private final CurrencyConfig currencies;
    private final Pages pages;
    private final PageText text;
    private final SecurityIdentity identity;

    public ConsoleProductsPage(Catalog catalog, ProductRequestValidator requests, StockHistoryStore history, CurrencyConfig currencies,
            Pages pages, PageText text, SecurityIdentity identity) {
        this.catalog = catalog;
        this.requests = requests;
        this.history = history;
        this.currencies = currencies;
        this.pages = pages;
        this.text = text;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response list(@RestQuery String after) {
        Caller caller = Caller.of(identity);
        Map<String, Object> data = new HashMap<>();
        int status = 200;
        ProductPage products;
        try {
            products = catalog.list(caller, String.valueOf(Paging.MAX_LIMIT), after);
        } catch (ProblemException notACursor) {
            status = 400;
            data.put("message", text.get("console_products_badLink"));
            products = catalog.list(caller, String.valueOf(Paging.MAX_LIMIT), null);
        }
        data.put("products", products);
        return pages.page(status, "console-products", data);
    }

    @GET
    @Path("new")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response blank() {
        return newProduct(200, ProductForm.blank(new TreeSet<>(currencies.currencies()).first()), Map.of());
    }

    @POST
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response create(@RestForm String sku, @RestForm String name, @RestForm String description, @RestForm String price,
            @RestForm String currency, @RestForm String onHand, @RestForm String active) {
        ProductForm form = ProductForm.posted(sku, name, description, price, currency, onHand, active);
        Map<String, String> unreadable = new LinkedHashMap<>();
        ProductRequest request = form.forCreate(unreadable);
        Map<String, String> errors = refusals(unreadable, () -> requests.forCreate(request));
        if (!errors.isEmpty()) {
            return newProduct(400, form, errors);
        }
        try {
            catalog.create(request);
        } catch (ProblemException refused) {
            // Submitted twice, or a sku taken before: nothing more is added, and the product shows as it is.
            return backTo(request.sku(), refused.problem().code());
        }
        return backTo(request.sku(), "created");
    }

    @GET
    @Path("{sku}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@RestPath String sku, @RestQuery String notice, @RestQuery String after) {
        return product(200, sku, null, StockForm.fresh(), noticeOf(notice), after);
    }

    @POST
    @Path("{sku}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response save(@RestPath String sku, @RestForm String name, @RestForm String description, @RestForm String price,
            @RestForm String currency, @RestForm String active) {
        ProductForm form = ProductForm.posted(sku, name, description, price, currency, "", active);
        Map<String, String> unreadable = new LinkedHashMap<>();
        ProductRequest request = form.forUpdate(unreadable);
        Map<String, String> errors = refusals(unreadable, () -> requests.forUpdate(request));
        if (!errors.isEmpty()) {
            return product(400, sku, new Edit(form, errors), StockForm.fresh(), "", null);
        }
        try {
            catalog.replace(sku, request);
        } catch (ProblemException notFound) {
            return missing();
        }
        return backTo(sku, "saved");
    }

    @POST
    @Path("{sku}/stock")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response adjust(@RestPath String sku, @RestForm String delta, @RestForm String reason, @RestForm String commandId) {
        String command;
        try {
            // The limits of an Idempotency-Key, as the order actions' command ids; a form without one is refused too.
            command = IdempotencyKey.valueOf(Objects.requireNonNullElse(commandId, "")).value();
        } catch (ProblemException invalid) {
            return product(400, sku, null, StockForm.fresh(), text.get("order_invalidCommand"), null);
        }
        Map<String, String> unreadable = new LinkedHashMap<>();
        StockAdjustmentRequest request = ProductForm.adjustment(delta, reason, unreadable);
        Map<String, String> errors = refusals(unreadable, () -> requests.adjustment(request));
        StockForm posted = new StockForm(Objects.requireNonNullElse(delta, ""), Objects.requireNonNullElse(reason, ""), command, errors);
        if (!errors.isEmpty()) {
            return product(400, sku, null, posted, "", null);
        }
        try {
            catalog.adjustOnce(Caller.of(identity), sku, request, command);
        } catch (ProblemException refused) {
            // Not found, or on hand would leave its range: the form again as posted, saying why nothing was done.
            return product(refused.problem().status(), sku, null, posted, noticeOf(refused.problem().code()), null);
        }
        return backTo(sku, "adjusted");
    }

    /** The edit form as posted, with its refusals; null shows the product as it is. */
    private record Edit(ProductForm form, Map<String, String> errors) {
    }

    /** The words beside each refused field: a number that is none, then what the API's rules refuse. */
    private Map<String, String> refusals(Map<String, String> unreadable, Runnable check) {
        Map<String, String> errors = new LinkedHashMap<>();
        unreadable.forEach((field, key) -> errors.put(field, text.get(key)));
        try {
            check.run();
        } catch (ProblemException refused) {
            for (FieldError error : refused.problem().listed(Problem.ERRORS, FieldError.class)) {
                errors.putIfAbsent(error.field(), text.sentence(text.rule(error.message())));
            }
        }
        return errors;
    }

    private Response newProduct(int status, ProductForm form, Map<String, String> errors) {
        Map<String, Object> data = new HashMap<>();
        data.put("form", form);
        data.put("errors", errors);
        data.put("currencies", currencies(form.currency()));
        return pages.page(status, "console-product-new", data);
    }

    private Response product(int status, String sku, Edit edit, StockForm stock, String notice, String after) {
        ProductView product;
        try {
            product = catalog.get(Caller.of(identity), sku);
        } catch (ProblemException notFound) {
            return missing();
        }
        Map<String, Object> data = new HashMap<>();
        StockHistoryPage changes;
        try {
            changes = history.of(product.sku(), null, after);
        } catch (ProblemException notACursor) {
            status = 400;
            notice = text.get("console_stock_badLink");
            changes = history.of(product.sku(), null, null);
        }
        ProductForm form = edit == null ? ProductForm.of(product) : edit.form();
        data.put("product", product);
        data.put("form", form);
        data.put("errors", edit == null ? Map.of() : edit.errors());
        data.put("currencies", currencies(form.currency()));
        data.put("stock", stock);
        data.put("notice", notice);
        data.put("history", changes.items().stream().map(this::change).toList());
        data.put("next", changes.next());
        return pages.page(status, "console-product", data);
    }

    private Change change(StockHistoryEntry entry) {
        String order = entry.orderNumber() == null ? null : text.get("console_stock_order", entry.orderNumber());
        return new Change(entry.at(), text.get("console_stock_kind_" + entry.kind().wireName()),
                text.get("console_stock_change_" + entry.changes().wireName(), entry.quantity()), entry.actor(), entry.reason(),
                entry.orderId(), order);
    }

    /** The currencies products may be priced in, and the one the form holds, which the select must show even if no longer one. */
    private Set<String> currencies(String chosen) {
        Set<String> offered = new TreeSet<>(currencies.currencies());
        if (!chosen.isBlank()) {
            offered.add(chosen);
        }
        return offered;
    }

    /** The words of a page's {@code notice}: a form done, or a refusal's code; none for anything else. */
    private String noticeOf(String notice) {
        if (notice != null && DONE.contains(notice)) {
            return text.get("console_products_done_" + notice);
        }
        return ProblemCode.of(notice).map(code -> text.get("console_products_refused", code.code())).orElse("");
    }

    private static Response backTo(String sku, String notice) {
        return Response.seeOther(UriBuilder.fromPath(PATH + "/{sku}").queryParam(NOTICE, notice).build(sku)).build();
    }

    private Response missing() {
        return pages.page(404, "console-product-missing", Map.of());
    }
}
