package io.orderflow.catalog;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import org.hibernate.Session;
import org.hibernate.type.StandardBasicTypes;

import io.orderflow.shared.http.Paging;

/**
 * A product's stock history, newest first, derived in one statement from what is stored anyway: staff's adjustments
 * ({@code stock_adjustments}), and, of the orders that hold a reservation ({@code orders.stock_reserved}), the
 * reservation made with the order, its release when the order was cancelled (by its customer, staff or its payment
 * deadline: every way into {@code cancelled}) and its shipment. Nothing is written for it on the orders' path.
 * An order's lines of one product count as one entry, as the reservation merged them.
 */
@ApplicationScoped
public class StockHistoryStore {

    /**
     * Each entry's place in the history: its time, then its kind's rank (its {@link StockHistoryEntry.Kind}, from 1), then
     * its row ({@code ref}); the cursor carries the three of the page's last entry. Refs compare within a kind only: ids padded to bigint's width, an order's id.
     */
    private static final String HISTORY = """
            SELECT at, rank, ref, quantity, actor, reason, order_id, order_number, on_hand_after FROM (
                SELECT a.at, 1 AS rank, lpad(CAST(a.id AS text), 19, '0') AS ref, a.delta AS quantity, a.actor, a.reason,
                    CAST(NULL AS uuid) AS order_id, CAST(NULL AS bigint) AS order_number, a.on_hand_after
                FROM stock_adjustments a WHERE a.sku = :sku
                UNION ALL
                SELECT o.created_at, 2, CAST(o.id AS text), CAST(sum(i.quantity) AS int), o.customer, NULL, o.id, o.order_number, NULL
                FROM orders o JOIN order_items i ON i.order_id = o.id
                WHERE i.sku = :sku AND o.stock_reserved
                GROUP BY o.id
                UNION ALL
                SELECT h.at, CASE WHEN h.event = 'ship' THEN 4 ELSE 3 END, lpad(CAST(h.id AS text), 19, '0'), -CAST(sum(i.quantity) AS int), h.actor,
                    NULL, o.id, o.order_number, NULL
                FROM order_history h JOIN orders o ON o.id = h.order_id JOIN order_items i ON i.order_id = o.id
                WHERE i.sku = :sku AND o.stock_reserved AND (h.event = 'ship' OR h.to_status = 'cancelled')
                GROUP BY h.id, o.id
            ) history
            WHERE (at, rank, ref) < (CAST(:at AS timestamptz), :rank, :ref)
            ORDER BY at DESC, rank DESC, ref DESC
            LIMIT :limit""";
    /** After every entry: the cursor of the first page, which keeps the cursor's predicate free of a null. */
    private static final Position NEWEST = new Position(Instant.parse("9999-12-31T00:00:00Z"), Integer.MAX_VALUE, "");
    private static final Pattern REF = Pattern.compile("[0-9a-f-]{1,36}");

    /** Where an entry stands in the history. */
    private record Position(Instant at, int rank, String ref) {

        static Position of(String cursor) {
            String[] parts = cursor.split(" ", 3);
            if (parts.length != 3 || !REF.matcher(parts[2]).matches()) {
                throw new IllegalArgumentException("Not a position in a stock history");
            }
            try {
                return new Position(Instant.parse(parts[0]), Integer.parseInt(parts[1]), parts[2]);
            } catch (RuntimeException unreadable) {
                throw new IllegalArgumentException("Not a position in a stock history", unreadable);
            }
        }

        String cursor() {
            return Paging.cursor(at + " " + rank + " " + ref);
        }
    }

    private final EntityManager db;

    public StockHistoryStore(EntityManager db) {
        this.db = db;
    }

    /** One page of the product's history, newest first, after the entry in the cursor {@code after}; 404 for an unknown sku. */
    @Transactional
    public StockHistoryPage of(String sku, String limit, String after) {
        int size = Paging.limit(limit);
        Position from = Paging.after(after, Position::of);
        if (Catalog.find(sku).isEmpty()) {
            throw Catalog.notFound();
        }
        Position start = from == null ? NEWEST : from;
        List<Object[]> rows = db.unwrap(Session.class).createNativeQuery(HISTORY, Object[].class)
                .addScalar("at", Instant.class).addScalar("rank", Integer.class).addScalar("ref", String.class)
                .addScalar("quantity", Integer.class).addScalar("actor", String.class).addScalar("reason", String.class)
                .addScalar("order_id", UUID.class).addScalar("order_number", Long.class).addScalar("on_hand_after", Integer.class)
                .setParameter("sku", sku).setParameter("at", start.at(), StandardBasicTypes.INSTANT).setParameter("rank", start.rank())
                .setParameter("ref", start.ref()).setParameter("limit", size + 1)
                .getResultList();
        List<StockHistoryEntry> entries = rows.stream().limit(size).map(StockHistoryStore::entry).toList();
        if (rows.size() <= size) {
            return new StockHistoryPage(entries, null);
        }
        Object[] last = rows.get(size - 1);
        return new StockHistoryPage(entries, new Position((Instant) last[0], (Integer) last[1], (String) last[2]).cursor());
    }

    private static StockHistoryEntry entry(Object[] row) {
        StockHistoryEntry.Kind kind = StockHistoryEntry.Kind.values()[(Integer) row[1] - 1];
        return new StockHistoryEntry((Instant) row[0], kind, (Integer) row[3], kind.changes(), (String) row[4], (String) row[5],
                (UUID) row[6], (Long) row[7], (Integer) row[8]);
    }
}
