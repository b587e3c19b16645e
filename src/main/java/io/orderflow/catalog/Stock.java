package io.orderflow.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;

/**
 * Stock held for orders, changed in the caller's transaction. An order reserves its lines in the statement
 * that stores it (the order package's); releases and shipments are one guarded conditional UPDATE per product
 * here. Every change locks the rows in sku order, so that concurrent orders never deadlock. PostgreSQL decides:
 * the guards see committed reservations of other orders, and the table's CHECK keeps on hand from going below
 * reserved or zero whatever happens here.
 */
@ApplicationScoped
public class Stock {

    private static final String RELEASE = """
            UPDATE products SET reserved = reserved - :quantity, updated_at = now()
            WHERE sku = :sku AND reserved >= :quantity""";
    private static final String SHIP = """
            UPDATE products SET on_hand = on_hand - :quantity, reserved = reserved - :quantity, updated_at = now()
            WHERE sku = :sku AND reserved >= :quantity""";
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
     * The answer to an order whose reservation fell short (the order's statement reserves its lines, all or none):
     * a 409 {@code out-of-stock} naming every short item with what is available now.
     */
    public ProblemException shortOf(List<String> skus, Map<String, Integer> wanted) {
        Map<String, Integer> available = available(skus);
        return outOfStock(skus.stream().map(sku -> new Shortage(sku, wanted.get(sku), available.getOrDefault(sku, 0))).toList());
    }

    /**
     * Refuses at once, with a 409 {@code out-of-stock}, lines that these products as just read cannot
     * supply: once a flash sale has sold out, a latecomer costs one read instead of an insert and a wait
     * for the product's row. No lock is taken; the order's guarded reservation still decides for the lines that pass.
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
    public static SortedMap<String, Integer> merged(List<StockLine> lines) {
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
