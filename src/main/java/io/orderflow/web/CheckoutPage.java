package io.orderflow.web;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;

import io.orderflow.catalog.Catalog;
import io.orderflow.catalog.ProductPage;
import io.orderflow.catalog.ProductView;
import io.orderflow.catalog.Stock;
import io.orderflow.customer.AddressStore;
import io.orderflow.order.CurrentPrice;
import io.orderflow.order.OrderRequestValidator;
import io.orderflow.order.OrderService;
import io.orderflow.shared.http.Paging;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.orderflow.token.OrderTokens;
import io.orderflow.token.TokenConfig;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.annotation.FormAuthentication;
import io.vertx.core.http.HttpServerRequest;

/**
 * The web checkout: the catalog's products on sale as a cart form carrying a one-time order token,
 * posted back and answered with a 303 to the order's page (POST, redirect, GET). Submitting the same
 * form again, from a double click, a second tab or the back button, uses the same token and so lands
 * on the same order. Each item is posted with the price the page showed, so a price that changed
 * meanwhile is caught and shown beside the item instead of being charged unseen. The browser keeps the
 * form's token (cookie {@value #KEPT_TOKEN}) until an order uses it, so reloading the page issues none.
 */
@Path(CheckoutPage.PATH)
@FormAuthentication
@Authenticated
public class CheckoutPage {

    static final String PATH = "/checkout";
    /** The cookie that keeps the form's order token for its browser, while it is unused. */
    static final String KEPT_TOKEN = "checkout-token";

    private static final Pattern ITEM_FIELD = Pattern.compile("items\\[(\\d+)\\]\\.\\w+");

    /**
     * What the page says about a cart: a message at the top, an error about the cart as a whole, per sku an error or a
     * notice, and per address field an error.
     */
    private record Feedback(String message, String cartError, Map<String, String> errors, Map<String, String> notices,
            Map<String, String> addressErrors) {

        static final Feedback NONE = new Feedback(null, null, Map.of(), Map.of(), Map.of());

        static Feedback message(String message) {
            return new Feedback(message, null, Map.of(), Map.of(), Map.of());
        }

        static Feedback notices(String message, Map<String, String> notices) {
            return new Feedback(message, null, Map.of(), notices, Map.of());
        }

        /** Nothing stands in the way of the order. */
        boolean isClean() {
            return cartError == null && errors.isEmpty() && addressErrors.isEmpty();
        }
    }



    private final OrderTokens tokens;
    private final OrderService orders;
    private final OrderRequestValidator requests;
    private final Catalog catalog;
    private final AddressStore addresses;
    private final Pages pages;
    private final PageText text;
    private final PageLocale locale;
    private final SecurityIdentity identity;
    private final Duration tokenLifetime;

    public CheckoutPage(OrderTokens tokens, OrderService orders, OrderRequestValidator requests, Catalog catalog, AddressStore addresses,
            Pages pages, PageText text, PageLocale locale, SecurityIdentity identity, TokenConfig tokenConfig) {
        this.tokens = tokens;
        this.tokenLifetime = tokenConfig.ttl();
        this.orders = orders;
        this.requests = requests;
        this.catalog = catalog;
        this.addresses = addresses;
        this.pages = pages;
        this.text = text;
        this.locale = locale;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@CookieParam(KEPT_TOKEN) String kept, @Context HttpServerRequest request) {
        AddressForm address = addresses.saved(Caller.of(identity).name()).map(AddressForm::of).orElse(AddressForm.EMPTY);
        return pageWithToken(200, Cart.empty(), address, Feedback.NONE, kept, request);
    }

    /** Shows the chosen lines and their total without placing anything: the total for a browser without JavaScript. */
    @POST
    @Path("review")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response review(@BeanParam PostedCheckout form) {
        Cart cart = form.cart();
        AddressForm address = form.address();
        Feedback mistakes = mistakes(cart, address);
        if (mistakes.isClean()) {
            try {
                requests.validate(cart.request(address.address()));
            } catch (ProblemException refused) {
                mistakes = invalid(refused.problem(), cart);
            }
        }
        return mistakes.isClean() ? page(200, form.token, cart, address, Feedback.NONE, true)
                : page(400, form.token, cart, address, mistakes, false);
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response submit(@BeanParam PostedCheckout form, @Context HttpServerRequest request) {
        Cart cart = form.cart();
        AddressForm address = form.address();
        Feedback mistakes = mistakes(cart, address);
        if (!mistakes.isClean()) {
            return page(400, form.token, cart, address, mistakes, false);
        }
        try {
            // The shop's cart prices as for any shopper, staff included: a stale price is shown as changed.
            // Back-office prices are for the API.
            OrderService.Creation created = orders.createBlocking(new Caller(Caller.of(identity).name(), false), form.token,
                    cart.request(address.address()));
            return Response.seeOther(URI.create(OrderDetailPage.PATH + created.id())).build();
        } catch (ProblemException refused) {
            return refusal(refused.problem(), form.token, cart, address, request);
        }
    }

    /** Every answer but an order is the form again, cart and address kept; the token stays unless it can no longer be used. */
    private Response refusal(Problem problem, String token, Cart cart, AddressForm address, HttpServerRequest request) {
        Optional<ProblemCode> code = ProblemCode.of(problem.code());
        if (code.isEmpty()) {
            return notPlaced(problem, token, cart, address);
        }
        return switch (code.get()) {
            case VALIDATION_FAILED -> page(400, token, cart, address, invalid(problem, cart), false);
            case PRICE_CHANGED -> {
                Map<String, String> prices = changedPrices(problem);
                Cart repriced = cart.repriced(prices);
                Map<String, String> notices = new LinkedHashMap<>();
                prices.forEach((sku, price) -> notices.put(sku, text.get("checkout_priceChanged", text.amount(price, repriced.item(sku).orElseThrow().currency()))));
                List<Stock.Shortage> shortages = problem.listed(Problem.SHORTAGES, Stock.Shortage.class);
                shortages.forEach(item -> notices.merge(item.sku(), shortage(item),
                        (price, stock) -> text.get("checkout_priceChangedAndShort", price, stock.toLowerCase(locale.locale()))));
                yield page(409, token, repriced, address, Feedback.notices(text.get(shortages.isEmpty() ? "checkout_pricesChanged" : "checkout_pricesAndStock"),
                        notices), false);
            }
            case OUT_OF_STOCK -> {
                Map<String, String> notices = new LinkedHashMap<>();
                shortages(problem).forEach(item -> notices.put(item.sku(), shortage(item)));
                yield page(409, token, cart, address, Feedback.notices(text.get("checkout_outOfStock"), notices), false);
            }
            case ORDER_TOKEN_INVALID, ORDER_TOKEN_MISSING -> pageWithToken(200, cart, address, Feedback.message(text.get("checkout_expired")), null, request);
            case ORDER_TOKEN_REUSED -> pageWithToken(200, cart, address, Feedback.message(text.get("checkout_reused")), null, request);
            case ORDER_TOKEN_IN_USE -> page(200, token, cart, address, Feedback.message(text.get("checkout_inProgress")), false);
            default -> notPlaced(problem, token, cart, address);
        };
    }

    /** Any other refusal: the form again, saying the order was not placed. */
    private Response notPlaced(Problem problem, String token, Cart cart, AddressForm address) {
        return page(problem.status(), token, cart, address, Feedback.message(text.get("checkout_notPlaced")), false);
    }

    /**
     * What the form itself shows to be wrong, before the order rules are asked; with the cart wrong, the address's
     * mistakes too, so that one submit reports them all.
     */
    private Feedback mistakes(Cart cart, AddressForm address) {
        Map<String, String> errors = new LinkedHashMap<>();
        cart.itemErrors().forEach((sku, error) -> errors.put(sku, text.get(error)));
        String cartError = cart.cartError() == null ? null : text.get(cart.cartError());
        if (errors.isEmpty() && cartError == null) {
            return Feedback.NONE;
        }
        Map<String, String> addressErrors = new LinkedHashMap<>();
        requests.addressErrors(address.address()).forEach(error -> AddressForm.fieldOf(error.field())
                .ifPresent(field -> addressErrors.putIfAbsent(field, text.sentence(text.rule(error.message())))));
        return new Feedback(text.get("checkout_correct"), cartError, errors, Map.of(), addressErrors);
    }

    /** The order rules' field names ({@code items[1].sku}, {@code shippingAddress.city}) as the fields of the page they came from. */
    private Feedback invalid(Problem problem, Cart cart) {
        List<Cart.Item> chosen = cart.chosen();
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, String> addressErrors = new LinkedHashMap<>();
        List<String> cartErrors = new ArrayList<>();
        for (FieldError error : problem.listed(Problem.ERRORS, FieldError.class)) {
            Matcher item = ITEM_FIELD.matcher(error.field());
            Optional<String> addressField = AddressForm.fieldOf(error.field());
            if (item.matches() && Integer.parseInt(item.group(1)) < chosen.size()) {
                errors.putIfAbsent(chosen.get(Integer.parseInt(item.group(1))).sku(), text.sentence(text.rule(error.message())));
            } else if (addressField.isPresent()) {
                addressErrors.putIfAbsent(addressField.get(), text.sentence(text.rule(error.message())));
            } else {
                cartErrors.add(text.sentence(error.field() + " " + error.message()));
            }
        }
        return new Feedback(text.get("checkout_correct"), cartErrors.isEmpty() ? null : String.join(" ", cartErrors), errors, Map.of(), addressErrors);
    }

    /** The current prices of a {@code price-changed} answer, by sku. */
    private static Map<String, String> changedPrices(Problem problem) {
        Map<String, String> prices = new LinkedHashMap<>();
        problem.listed(Problem.ITEMS, CurrentPrice.class).forEach(item -> prices.put(item.sku(), item.unitPrice()));
        return prices;
    }

    private String shortage(Stock.Shortage item) {
        return item.available() == 0 ? text.get("checkout_soldOut") : text.get("checkout_onlyLeft", item.available());
    }

    private static List<Stock.Shortage> shortages(Problem problem) {
        return problem.listed(Problem.ITEMS, Stock.Shortage.class);
    }

    /**
     * The form with the token kept for this browser while it is unused and fresh ({@link OrderTokens#isFreshAndUnused}),
     * else a new one, which the browser then keeps: reloading and browsing the checkout use up no tokens, so they never
     * reach the cap of outstanding tokens. A kept token of someone else's, or used, or soon to expire, is replaced.
     */
    private Response pageWithToken(int status, Cart cart, AddressForm address, Feedback feedback, String kept, HttpServerRequest request) {
        String customer = Caller.of(identity).name();
        String token;
        if (kept != null && tokens.isFreshAndUnused(customer, kept)) {
            token = kept;
        } else {
            try {
                token = tokens.issue(customer).await().indefinitely().token();
            } catch (ProblemException tooMany) {
                return page(tooMany.problem().status(), null, cart, address, Feedback.message(text.get("checkout_tooManyOpen")), false);
            }
        }
        NewCookie keep = new NewCookie.Builder(KEPT_TOKEN).value(token).path(PATH).httpOnly(true).sameSite(NewCookie.SameSite.STRICT)
                .secure("https".equals(request.scheme())).maxAge((int) tokenLifetime.toSeconds()).build();
        return Response.fromResponse(page(status, token, cart, address, feedback, false)).cookie(keep).build();
    }

    private Response page(int status, String token, Cart cart, AddressForm address, Feedback feedback, boolean reviewed) {
        List<CheckoutForm.Line> lines = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        for (ProductView product : productsOnSale()) {
            listed.add(product.sku());
            // An untouched quantity is blank (shown as a 0 placeholder), so that what is typed into it is the quantity.
            Cart.Item item = cart.item(product.sku()).orElse(new Cart.Item(product.sku(), "", product.price(), product.currency()));
            lines.add(line(item, product.name(), product.description(), feedback, reviewed));
        }
        // A chosen item that is no longer on sale stays on the page with what is wrong with it, so nothing leaves the cart unseen.
        cart.chosen().stream().filter(item -> !listed.contains(item.sku()))
                .forEach(item -> lines.add(line(item, item.sku(), "", feedback, reviewed)));
        // With nothing to mark beside an item (an empty cart), what is wrong is said at the top, not "marked below".
        boolean cartOnly = feedback.errors().isEmpty() && feedback.cartError() != null;
        CheckoutForm form = new CheckoutForm(token, lines, address, feedback.addressErrors(), AddressForm.countries(locale.locale()),
                cartOnly ? feedback.cartError() : feedback.message(), mistakes(lines, feedback), cartOnly ? null : feedback.cartError(),
                reviewed ? text.amount(cart.total(), cart.currency()) : null);
        return pages.checkoutForm(status, Map.of("form", form));
    }

    /** Every mistake of the submit, each linking to its field: the items' in the page's order, then the address's. */
    private List<CheckoutForm.Mistake> mistakes(List<CheckoutForm.Line> lines, Feedback feedback) {
        List<CheckoutForm.Mistake> mistakes = new ArrayList<>();
        lines.stream().filter(line -> line.error() != null).forEach(line -> mistakes.add(
                new CheckoutForm.Mistake("quantity-" + line.sku(), text.get("checkout_mistake", line.name(), line.error()))));
        feedback.addressErrors().forEach((field, error) -> mistakes.add(
                new CheckoutForm.Mistake("address-" + field, text.get("checkout_mistake", text.get("address_" + field), error))));
        return mistakes;
    }

    private CheckoutForm.Line line(Cart.Item item, String name, String description, Feedback feedback, boolean reviewed) {
        return new CheckoutForm.Line(item.sku(), name, description, item.price(), item.currency(), item.quantity(),
                feedback.errors().get(item.sku()), feedback.notices().get(item.sku()),
                reviewed && item.isChosen() ? text.amount(item.subtotal(), item.currency()) : null);
    }

    /** The active products in sku order, read page by page as the catalog lists them (staff would also see inactive ones). */
    private List<ProductView> productsOnSale() {
        Caller caller = Caller.of(identity);
        List<ProductView> products = new ArrayList<>();
        String after = null;
        do {
            ProductPage page = catalog.list(caller, String.valueOf(Paging.MAX_LIMIT), after);
            page.items().stream().filter(ProductView::active).forEach(products::add);
            after = page.next();
        } while (after != null);
        return products;
    }
}
