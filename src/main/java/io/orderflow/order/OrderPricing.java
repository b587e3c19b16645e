package io.orderflow.order;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import io.orderflow.catalog.Product;
import io.orderflow.catalog.Stock;
import io.orderflow.catalog.StockLine;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.FieldError;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;

/**
 * Prices an order from the catalog, in the transaction that places it. A customer pays the current
 * price: a price stated in the request (what the cart showed) must be it, or nothing is ordered and
 * the answer names the current prices. Staff may state their own price (back-office orders).
 */
@ApplicationScoped
class OrderPricing {

    private final Stock stock;

    public OrderPricing(Stock stock) {
        this.stock = stock;
    }

    /** The order's lines at the prices it is placed at, and its total. */
    public record PricedOrder(String currency, List<OrderLine> lines, BigDecimal total) {
    }

    /** Prices the request from its products as just read (by sku; a sku without a product is absent). */
    public PricedOrder price(Caller caller, NewOrder request, Map<String, Product> products) {
        List<FieldError> notForSale = new ArrayList<>();
        Map<String, String> changed = new LinkedHashMap<>();
        List<OrderLine> lines = new ArrayList<>();
        BigDecimal total = BigDecimal.ZERO;
        for (int i = 0; i < request.lines().size(); i++) {
            NewOrder.Line line = request.lines().get(i);
            Product product = products.get(line.sku());
            if (product == null || !product.active) {
                notForSale.add(new FieldError("items[" + i + "].sku", "is not a product on sale"));
                continue;
            }
            if (!product.currency.equals(request.currency())) {
                notForSale.add(new FieldError("items[" + i + "].sku", "is sold in " + product.currency + ", not " + request.currency()));
                continue;
            }
            BigDecimal current = Money.normalize(product.price, product.currency);
            BigDecimal unitPrice = line.statedPrice() == null || !caller.staff() ? current : line.statedPrice();
            if (line.statedPrice() != null && !caller.staff() && line.statedPrice().compareTo(current) != 0) {
                changed.put(line.sku(), Money.format(current, product.currency));
            }
            lines.add(new OrderLine(line.sku(), line.quantity(), unitPrice, product.name));
            total = total.add(unitPrice.multiply(BigDecimal.valueOf(line.quantity())));
        }
        if (!notForSale.isEmpty()) {
            throw new ProblemException(Problem.invalid(notForSale));
        }
        List<StockLine> wanted = lines.stream().map(line -> new StockLine(line.sku, line.quantity)).toList();
        if (!changed.isEmpty()) {
            // The stock's shortages too, so that one answer says everything the cart must change.
            List<Stock.Shortage> shortages = stock.shortages(products, wanted);
            Problem priceChanged = Problem.of(ProblemCode.PRICE_CHANGED, "The price of " + String.join(", ", changed.keySet()) + " is not what the cart showed; nothing was ordered. "
                            + "Check the current prices and order again with the same order token.")
                    .with(Problem.ITEMS, changed.entrySet().stream().map(item -> new CurrentPrice(item.getKey(), item.getValue())).toList());
            throw new ProblemException(shortages.isEmpty() ? priceChanged : priceChanged.with(Problem.SHORTAGES, shortages));
        }
        stock.requireAvailable(products, wanted);
        return new PricedOrder(request.currency(), List.copyOf(lines), Money.normalize(total, request.currency()));
    }
}
