package io.orderflow.catalog;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;

import io.orderflow.idempotency.IdempotencyRecords;
import io.orderflow.shared.http.Paging;
import io.orderflow.shared.money.Money;
import io.orderflow.shared.problem.Problem;
import io.orderflow.shared.problem.ProblemCode;
import io.orderflow.shared.problem.ProblemException;
import io.orderflow.shared.security.Caller;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;

/**
 * The products of the catalog, as the API reads and staff change them; each method is one short
 * transaction. Customers see active products only and are answered about an inactive one as if it
 * did not exist, since they cannot order it; staff see every product.
 */
@ApplicationScoped
public class Catalog {

    /** A sku as the API takes it. */
    static final String SKU = "[A-Za-z0-9._-]{1,64}";
    /** Text on one line: no control characters, and no unpaired surrogates, which would not be stored as written. */
    static final String ONE_LINE = "[\\P{Cc}&&\\P{Cs}]*";
    /** Text that may also hold tabs and line breaks. */
    static final String MULTI_LINE = "[\\t\\n\\r\\P{Cc}&&\\P{Cs}]*";
    /** Far below the limit of the INT column, so that no adjustment can overflow it. */
    static final int MAX_ON_HAND = 1_000_000_000;

    private static final Pattern SKU_SYNTAX = Pattern.compile(SKU);

    private static final String INSERT = """
            INSERT INTO products (sku, name, description, price, currency, active, on_hand)
            VALUES (:sku, :name, :description, :price, :currency, :active, :onHand)
            ON CONFLICT (sku) DO NOTHING""";
    private static final String REPLACE = """
            UPDATE products SET name = :name, description = :description, price = :price, currency = :currency, active = :active,
                version = version + 1, updated_at = now()
            WHERE sku = :sku""";
    /** On hand never below what is reserved for orders: the guard decides, also against reservations made meanwhile. */
    private static final String ADJUST = """
            UPDATE products SET on_hand = on_hand + :delta, version = version + 1, updated_at = now()
            WHERE sku = :sku AND on_hand + :delta >= reserved AND on_hand + :delta <= :max
            RETURNING on_hand""";
    private static final String RECORD_ADJUSTMENT = """
            INSERT INTO stock_adjustments (sku, delta, reason, actor, on_hand_after, at, command_id)
            VALUES (:sku, :delta, :reason, :actor, :onHandAfter, now(), CAST(:commandId AS varchar))""";
    /** Holds the product's row until the transaction ends: a command sent again meanwhile waits, then finds this one's record. */
    private static final String LOCK = "SELECT sku FROM products WHERE sku = :sku FOR UPDATE";
    private static final String COMMAND_DONE = "SELECT 1 FROM stock_adjustments WHERE sku = :sku AND command_id = :commandId";

    private final EntityManager db;
    private final IdempotencyRecords keys;

    public Catalog(EntityManager db, IdempotencyRecords keys) {
        this.db = db;
        this.keys = keys;
    }

    /** The products the caller may see, in sku order, after the sku in the cursor {@code after}. */
    @Transactional
    public ProductPage list(Caller caller, String limit, String after) {
        int size = Paging.limit(limit);
        String from = Paging.after(after, Catalog::skuOf);
        StringBuilder query = new StringBuilder("1 = 1");
        Parameters parameters = new Parameters();
        if (!caller.staff()) {
            query.append(" and active = true");
        }
        if (from != null) {
            query.append(" and sku > :after");
            parameters.and("after", from);
        }
        List<ProductView> page = Product.<Product>find(query.toString(), Sort.by("sku"), parameters)
                .range(0, size).list().stream().map(ProductView::of).toList();
        if (page.size() <= size) {
            return new ProductPage(page, null);
        }
        List<ProductView> items = page.subList(0, size);
        return new ProductPage(items, Paging.cursor(items.get(size - 1).sku()));
    }

    @Transactional
    public ProductView get(Caller caller, String sku) {
        return find(sku).filter(product -> caller.staff() || product.active).map(ProductView::of).orElseThrow(Catalog::notFound);
    }

    /** Adds a checked product; a sku that is taken is a 409, whatever the product holds. */
    @Transactional
    public ProductView create(ProductRequest product) {
        int inserted = withDetails(db.createNativeQuery(INSERT), product)
                .setParameter("sku", product.sku()).setParameter("onHand", product.onHand())
                .executeUpdate();
        if (inserted == 0) {
            throw new ProblemException(Problem.of(ProblemCode.PRODUCT_EXISTS, "There is already a product " + product.sku() + "; change it with PUT /products/" + product.sku() + "."));
        }
        ProductView created = ProductView.of(Product.findById(product.sku()));
        keys.keepWithEffect(ProductResponses.created(created));
        return created;
    }

    /** Replaces everything of a product but its sku and stock. */
    @Transactional
    public ProductView replace(String sku, ProductRequest product) {
        if (!isSku(sku)) {
            throw notFound();
        }
        if (withDetails(db.createNativeQuery(REPLACE), product).setParameter("sku", sku).executeUpdate() == 0) {
            throw notFound();
        }
        return ProductView.of(Product.findById(sku));
    }

    /** Changes on hand by {@code delta} and records who did it and why, in one transaction. */
    @Transactional
    public ProductView adjust(Caller caller, String sku, StockAdjustmentRequest adjustment) {
        if (!isSku(sku)) {
            throw notFound();
        }
        ProductView adjusted = applied(caller, sku, adjustment, null);
        keys.keepWithEffect(ProductResponses.ok(adjusted));
        return adjusted;
    }

    /**
     * The same, once per command id (a form's hidden one-time id): a repeat, a form submitted twice, changes nothing
     * and answers the product as it is. The product's row is locked before the command id is looked for, so a repeat
     * running beside the first waits for it and then finds its record.
     */
    @Transactional
    public ProductView adjustOnce(Caller caller, String sku, StockAdjustmentRequest adjustment, String commandId) {
        if (!isSku(sku) || db.createNativeQuery(LOCK).setParameter("sku", sku).getResultList().isEmpty()) {
            throw notFound();
        }
        if (!db.createNativeQuery(COMMAND_DONE).setParameter("sku", sku).setParameter("commandId", commandId).getResultList().isEmpty()) {
            return ProductView.of(Product.findById(sku));
        }
        return applied(caller, sku, adjustment, commandId);
    }

    private ProductView applied(Caller caller, String sku, StockAdjustmentRequest adjustment, String commandId) {
        List<?> onHandAfter = db.createNativeQuery(ADJUST).setParameter("sku", sku).setParameter("delta", adjustment.delta())
                .setParameter("max", MAX_ON_HAND).getResultList();
        if (onHandAfter.isEmpty()) {
            throw refusal(sku, adjustment.delta());
        }
        db.createNativeQuery(RECORD_ADJUSTMENT).setParameter("sku", sku).setParameter("delta", adjustment.delta())
                .setParameter("reason", adjustment.reason()).setParameter("actor", caller.name())
                .setParameter("onHandAfter", onHandAfter.get(0)).setParameter("commandId", commandId)
                .executeUpdate();
        return ProductView.of(Product.findById(sku));
    }

    /** Why an adjustment changed nothing: no such product, or on hand would leave the allowed range. */
    private ProblemException refusal(String sku, int delta) {
        Product product = find(sku).orElseThrow(Catalog::notFound);
        Problem problem = product.onHand + delta > MAX_ON_HAND
                ? Problem.of(ProblemCode.STOCK_LIMIT_EXCEEDED, "On hand of " + sku + " may not exceed " + MAX_ON_HAND + ".")
                : Problem.of(ProblemCode.INSUFFICIENT_STOCK, "Adjusting " + sku + " by " + delta + " would leave " + (product.onHand + delta)
                                + " on hand, fewer than the " + product.reserved + " reserved for orders.");
        return new ProblemException(problem.with("onHand", product.onHand).with("reserved", product.reserved)
                .with("available", product.available()));
    }

    private static Query withDetails(Query query, ProductRequest product) {
        return query.setParameter("name", product.name()).setParameter("description", product.descriptionOrEmpty())
                .setParameter("price", Money.normalize(product.price(), product.currency()))
                .setParameter("currency", product.currency()).setParameter("active", product.active());
    }

    static Optional<Product> find(String sku) {
        return isSku(sku) ? Product.findByIdOptional(sku) : Optional.empty();
    }

    /** Anything but a sku finds nothing, and never reaches the database (which refuses some characters outright). */
    private static boolean isSku(String sku) {
        return sku != null && SKU_SYNTAX.matcher(sku).matches();
    }

    private static String skuOf(String position) {
        if (!isSku(position)) {
            throw new IllegalArgumentException("Not a sku");
        }
        return position;
    }

    static ProblemException notFound() {
        return new ProblemException(Problem.of(ProblemCode.PRODUCT_NOT_FOUND, "There is no such product."));
    }
}
