package io.orderflow.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.hibernate.Session;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/**
 * Stock held for orders, changed in the caller's transaction. Each change is one guarded conditional
 * UPDATE per product, made in sku order, so that concurrent orders lock the rows in the same order
 * and never deadlock. PostgreSQL decides: the guards see committed reservations of other orders, and
 * the table's CHECK keeps on hand from going below reserved or zero whatever happens here.
 */
@ApplicationScoped
public class Stock {

    private static final String RESERVE = """
            UPDATE products SET reserved = reserved + :quantity, updated_at = now()
            WHERE sku = :sku AND active AND on_hand - reserved >= :quantity""";
    private static final String RELEASE = """
            UPDATE products SET reserved = reserved - :quantity, updated_at = now()
            WHERE sku = :sku AND reserved >= :quantity""";
    private static final String SHIP = """
            UPDATE products SET on_hand = on_hand - :quantity, reserved = reserved - :quantity, updated_at = now()
            WHERE sku = :sku AND reserved >= :quantity""";
    private static final String PRODUCTS = "from Product where sku in :skus";
    /** What an order may still reserve: nothing of an inactive product. */
    private static final String AVAILABLE = """
            SELECT sku, CASE WHEN active THEN on_hand - reserved ELSE 0 END FROM products WHERE sku IN (:skus)""";
    /** What orders hold reserved; orders from before reservations ({@code stock_reserved} false) hold nothing. */
    private static final String RESERVED_LINES = """
            SELECT i.sku, i.quantity FROM order_items i JOIN orders o ON o.id = i.order_id
            WHERE o.id = ANY(CAST(:orderIds AS uuid[])) AND o.stock_reserved""";

    private final EntityManager db;

    public Stock(EntityManager db) {
        this.db = db;
    }

    /** An item an order asked for more of than is available. */
    public record Shortage(String sku, int requested, int available) {
    }

    /**
     * The products with these skus as they are now, whatever their state; a sku without a product is
     * absent. Read them before reserving: the objects do not follow later changes by this class's SQL.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Map<String, Product> products(Collection<String> skus) {
        if (skus.isEmpty()) {
            return Map.of();
        }
        // setParameterList, as setParameter would first try the collection as one value, and throw and catch on each call.
        return db.unwrap(Session.class).createSelectionQuery(PRODUCTS, Product.class).setParameterList("skus", skus).getResultStream()
                .collect(Collectors.toMap(product -> product.sku, Function.identity()));
    }

    /**
     * Reserves every line, or nothing: a line that is short (not enough available, or the product is
     * inactive or unknown) ends in a 409 {@code out-of-stock} naming every short item, and the caller's
     * transaction rolls back with what was reserved before it.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void reserve(List<StockLine> lines) {
        SortedMap<String, Integer> wanted = merged(lines);
        List<String> shortSkus = new ArrayList<>();
        wanted.forEach((sku, quantity) -> {
            if (change(RESERVE, sku, quantity) == 0) {
                shortSkus.add(sku);
            }
        });
        if (!shortSkus.isEmpty()) {
            throw outOfStock(shortSkus, wanted);
        }
    }

    /**
     * Refuses at once, with a 409 {@code out-of-stock}, lines that these products as just read cannot
     * supply: once a flash sale has sold out, a latecomer costs one read instead of an insert and a wait
     * for the product's row. No lock is taken; {@link #reserve} still decides for the lines that pass.
     */
    public void requireAvailable(Map<String, Product> products, List<StockLine> lines) {
        List<Shortage> shortages = shortages(products, lines);
        if (!shortages.isEmpty()) {
            throw outOfStock(shortages);
        }
    }

    /** The lines these products as just read cannot supply (none: all can), without refusing anything. */
    public List<Shortage> shortages(Map<String, Product> products, List<StockLine> lines) {
        return merged(lines).entrySet().stream()
                .filter(line -> products.get(line.getKey()).available() < line.getValue())
                .map(line -> new Shortage(line.getKey(), line.getValue(), Math.max(0, products.get(line.getKey()).available())))
                .toList();
    }

    /** Gives back what an order reserved; releasing more than is reserved is a bug, never a client's mistake. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void release(List<StockLine> lines) {
        merged(lines).forEach((sku, quantity) -> settle(RELEASE, sku, quantity, "release"));
    }

    /** Turns what an order reserved into a decrement of on hand: the goods have left. */
    @Transactional(Transactional.TxType.MANDATORY)
    public void ship(List<StockLine> lines) {
        merged(lines).forEach((sku, quantity) -> settle(SHIP, sku, quantity, "ship"));
    }

    /** What the orders hold reserved, one line per sku. */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<StockLine> reservedLinesOf(List<UUID> orderIds) {
        List<?> rows = db.createNativeQuery(RESERVED_LINES)
                .setParameter("orderIds", orderIds.stream().map(UUID::toString).toArray(String[]::new)).getResultList();
        List<StockLine> lines = rows.stream().map(Object[].class::cast)
                .map(row -> new StockLine((String) row[0], ((Number) row[1]).intValue())).toList();
        return merged(lines).entrySet().stream().map(line -> new StockLine(line.getKey(), line.getValue())).toList();
    }

    /** One quantity per sku, in sku order: the order in which every caller locks the rows. */
    static SortedMap<String, Integer> merged(List<StockLine> lines) {
        SortedMap<String, Integer> merged = new TreeMap<>();
        for (StockLine line : lines) {
            if (line.quantity() <= 0) {
                throw new IllegalArgumentException("A stock line needs a positive quantity: " + line);
            }
            merged.merge(line.sku(), line.quantity(), Math::addExact);
        }
        return merged;
    }

    private int change(String update, String sku, int quantity) {
        return db.createNativeQuery(update).setParameter("sku", sku).setParameter("quantity", quantity).executeUpdate();
    }

    private void settle(String update, String sku, int quantity, String what) {
        if (change(update, sku, quantity) == 0) {
            throw new IllegalStateException("Cannot " + what + " " + quantity + " of " + sku + ": less than that is reserved");
        }
    }

    private ProblemException outOfStock(List<String> skus, Map<String, Integer> wanted) {
        Map<String, Integer> available = available(skus);
        return outOfStock(skus.stream().map(sku -> new Shortage(sku, wanted.get(sku), available.getOrDefault(sku, 0))).toList());
    }

    /** What orders may still reserve of these products, by sku: nothing of an inactive one. */
    @Transactional
    public Map<String, Integer> available(Collection<String> skus) {
        Map<String, Integer> available = new HashMap<>();
        List<?> rows = db.createNativeQuery(AVAILABLE).setParameter("skus", skus).getResultList();
        rows.stream().map(Object[].class::cast).forEach(row -> available.put((String) row[0], ((Number) row[1]).intValue()));
        return available;
    }

    /** The answer to an order that asked for more than is available. */
    static ProblemException outOfStock(List<Shortage> items) {
        String detail = items.stream().map(item -> item.sku() + " (" + item.requested() + " requested, " + item.available() + " available)")
                .collect(Collectors.joining(", ", "Not enough stock for ", "."));
        return new ProblemException(Problem.of(ProblemCode.OUT_OF_STOCK, detail).with(Problem.ITEMS, items));
    }
}
