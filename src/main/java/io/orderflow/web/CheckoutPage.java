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

    private static final String CORRECT = "Please correct the items marked below.";
    private static final String PRICES_CHANGED = "Some prices changed since this page was loaded; nothing was ordered. "
            + "Check the new prices marked below and place the order again.";
    private static final String PRICES_AND_STOCK = "Some prices changed and some items are short of stock since this page was loaded; "
            + "nothing was ordered. Check the items marked below and place the order again.";
    private static final String OUT_OF_STOCK = "Some items are short of stock; nothing was ordered. "
            + "Change the quantities marked below and place the order again.";
    private static final String EXPIRED = "This form had expired. Your cart is kept: check it and place the order again.";
    private static final String REUSED = "This form was already used for another order. Your cart is kept: place it as a new order if you wish.";
    private static final String IN_PROGRESS = "Your order is still being placed. Submit again in a moment to see it.";
    private static final String TOO_MANY_OPEN = "You have started many orders elsewhere (other browsers or apps) without placing them. "
            + "Place one of them, or come back in a few minutes to order here.";
    private static final String NOT_PLACED = "Your order could not be placed just now. Submit again in a moment: it will not be placed twice.";

    /** What the page says about a cart: a message at the top, an error about the cart as a whole, and per sku an error or a notice. */
    private record Feedback(String message, String cartError, Map<String, String> errors, Map<String, String> notices) {

        static final Feedback NONE = new Feedback(null, null, Map.of(), Map.of());

        static Feedback message(String message) {
            return new Feedback(message, null, Map.of(), Map.of());
        }

        /** Nothing stands in the way of the order. */
        boolean isClean() {
            return cartError == null && errors.isEmpty();
        }
    }

    private final OrderTokens tokens;
    private final OrderService orders;
    private final OrderRequestValidator requests;
    private final Catalog catalog;
    private final Pages pages;
    private final SecurityIdentity identity;
    private final Duration tokenLifetime;

    public CheckoutPage(OrderTokens tokens, OrderService orders, OrderRequestValidator requests, Catalog catalog, Pages pages,
            SecurityIdentity identity, TokenConfig tokenConfig) {
        this.tokens = tokens;
        this.tokenLifetime = tokenConfig.ttl();
        this.orders = orders;
        this.requests = requests;
        this.catalog = catalog;
        this.pages = pages;
        this.identity = identity;
    }

    @GET
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response show(@CookieParam(KEPT_TOKEN) String kept, @Context HttpServerRequest request) {
        return pageWithToken(200, Cart.empty(), Feedback.NONE, kept, request);
    }

    /** Shows the chosen lines and their total without placing anything: the total for a browser without JavaScript. */
    @POST
    @Path("review")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response review(@BeanParam PostedCheckout form) {
        Cart cart = form.cart();
        Feedback mistakes = mistakes(cart);
        if (mistakes.isClean()) {
            try {
                requests.validate(cart.request());
            } catch (ProblemException refused) {
                mistakes = invalid(refused.problem(), cart);
            }
        }
        return mistakes.isClean() ? page(200, form.token, cart, Feedback.NONE, true) : page(400, form.token, cart, mistakes, false);
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true)
    public Response submit(@BeanParam PostedCheckout form, @Context HttpServerRequest request) {
        Cart cart = form.cart();
        Feedback mistakes = mistakes(cart);
        if (!mistakes.isClean()) {
            return page(400, form.token, cart, mistakes, false);
        }
        try {
            // The shop's cart prices as for any shopper, staff included: a stale price is shown as changed.
            // Back-office prices are for the API.
            OrderService.Creation created = orders.create(new Caller(Caller.of(identity).name(), false), form.token, cart.request());
            return Response.seeOther(URI.create(OrderDetailPage.PATH + created.id())).build();
        } catch (ProblemException refused) {
            return refusal(refused.problem(), form.token, cart, request);
        }
    }

    /** Every answer but an order is the form again, cart kept; the token stays unless it can no longer be used. */
    private Response refusal(Problem problem, String token, Cart cart, HttpServerRequest request) {
        Optional<ProblemCode> code = ProblemCode.of(problem.code());
        if (code.isEmpty()) {
            return notPlaced(problem, token, cart);
        }
        return switch (code.get()) {
            case VALIDATION_FAILED -> page(400, token, cart, invalid(problem, cart), false);
            case PRICE_CHANGED -> {
                Map<String, String> prices = changedPrices(problem);
                Cart repriced = cart.repriced(prices);
                Map<String, String> notices = new LinkedHashMap<>();
                prices.forEach((sku, price) -> notices.put(sku, "Price changed: now " + price + " " + repriced.item(sku).orElseThrow().currency()));
                List<Stock.Shortage> shortages = problem.listed(Problem.SHORTAGES, Stock.Shortage.class);
                shortages.forEach(item -> notices.merge(item.sku(), shortage(item), (price, stock) -> price + "; " + stock.toLowerCase(Locale.ROOT)));
                yield page(409, token, repriced, new Feedback(shortages.isEmpty() ? PRICES_CHANGED : PRICES_AND_STOCK, null, Map.of(), notices), false);
            }
            case OUT_OF_STOCK -> {
                Map<String, String> notices = new LinkedHashMap<>();
                shortages(problem).forEach(item -> notices.put(item.sku(), shortage(item)));
                yield page(409, token, cart, new Feedback(OUT_OF_STOCK, null, Map.of(), notices), false);
            }
            case ORDER_TOKEN_INVALID, ORDER_TOKEN_MISSING -> pageWithToken(200, cart, Feedback.message(EXPIRED), null, request);
            case ORDER_TOKEN_REUSED -> pageWithToken(200, cart, Feedback.message(REUSED), null, request);
            case ORDER_TOKEN_IN_USE -> page(200, token, cart, Feedback.message(IN_PROGRESS), false);
            default -> notPlaced(problem, token, cart);
        };
    }

    /** Any other refusal: the form again, saying the order was not placed. */
    private Response notPlaced(Problem problem, String token, Cart cart) {
        return page(problem.status(), token, cart, Feedback.message(NOT_PLACED), false);
    }

    /** What the form itself shows to be wrong, before the order rules are asked. */
    private static Feedback mistakes(Cart cart) {
        Map<String, String> errors = cart.itemErrors();
        String cartError = cart.cartError();
        return new Feedback(errors.isEmpty() && cartError == null ? null : CORRECT, cartError, errors, Map.of());
    }

    /** The order rules' field names ({@code items[1].sku}) as the items of the page they came from. */
    private static Feedback invalid(Problem problem, Cart cart) {
        List<Cart.Item> chosen = cart.chosen();
        Map<String, String> errors = new LinkedHashMap<>();
        List<String> cartErrors = new ArrayList<>();
        for (FieldError error : problem.listed(Problem.ERRORS, FieldError.class)) {
            Matcher item = ITEM_FIELD.matcher(error.field());
            if (item.matches() && Integer.parseInt(item.group(1)) < chosen.size()) {
                errors.putIfAbsent(chosen.get(Integer.parseInt(item.group(1))).sku(), sentence(error.message()));
            } else {
                cartErrors.add(sentence(error.field() + " " + error.message()));
            }
        }
        return new Feedback(CORRECT, cartErrors.isEmpty() ? null : String.join(" ", cartErrors), errors, Map.of());
    }

    /** The current prices of a {@code price-changed} answer, by sku. */
    private static Map<String, String> changedPrices(Problem problem) {
        Map<String, String> prices = new LinkedHashMap<>();
        problem.listed(Problem.ITEMS, CurrentPrice.class).forEach(item -> prices.put(item.sku(), item.unitPrice()));
        return prices;
    }

    private static String shortage(Stock.Shortage item) {
        return item.available() == 0 ? "Sold out" : "Only " + item.available() + " left";
    }

    private static List<Stock.Shortage> shortages(Problem problem) {
        return problem.listed(Problem.ITEMS, Stock.Shortage.class);
    }

    /**
     * The form with the token kept for this browser while it is unused and fresh ({@link OrderTokens#isFreshAndUnused}),
     * else a new one, which the browser then keeps: reloading and browsing the checkout use up no tokens, so they never
     * reach the cap of outstanding tokens. A kept token of someone else's, or used, or soon to expire, is replaced.
     */
    private Response pageWithToken(int status, Cart cart, Feedback feedback, String kept, HttpServerRequest request) {
        String customer = Caller.of(identity).name();
        String token;
        if (kept != null && tokens.isFreshAndUnused(customer, kept)) {
            token = kept;
        } else {
            try {
                token = tokens.issue(customer).await().indefinitely().token();
            } catch (ProblemException tooMany) {
                return page(tooMany.problem().status(), null, cart, Feedback.message(TOO_MANY_OPEN), false);
            }
        }
        NewCookie keep = new NewCookie.Builder(KEPT_TOKEN).value(token).path(PATH).httpOnly(true).sameSite(NewCookie.SameSite.STRICT)
                .secure("https".equals(request.scheme())).maxAge((int) tokenLifetime.toSeconds()).build();
        return Response.fromResponse(page(status, token, cart, feedback, false)).cookie(keep).build();
    }

    private Response page(int status, String token, Cart cart, Feedback feedback, boolean reviewed) {
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
        CheckoutForm form = new CheckoutForm(token, lines, cartOnly ? feedback.cartError() : feedback.message(), cartOnly ? null : feedback.cartError(),
                reviewed ? cart.total() : null);
        return pages.checkoutForm(status, Map.of("form", form));
    }

    private static CheckoutForm.Line line(Cart.Item item, String name, String description, Feedback feedback, boolean reviewed) {
        return new CheckoutForm.Line(item.sku(), name, description, item.price(), item.currency(), item.quantity(),
                feedback.errors().get(item.sku()), feedback.notices().get(item.sku()), reviewed && item.isChosen() ? item.subtotal() : null);
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

    private static String sentence(String message) {
        return Character.toUpperCase(message.charAt(0)) + message.substring(1) + ".";
    }
}
