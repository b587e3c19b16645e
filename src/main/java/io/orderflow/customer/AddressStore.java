package io.orderflow.customer;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.orderflow.shared.StoredJson;

/**
 * Each customer's shipping address: the one their last order named, used for an order that names none.
 * Customers are users or bearer tokens' subjects, so the table is keyed by the name alone.
 */
@ApplicationScoped
public class AddressStore {

    private static final String FIND = "SELECT CAST(address AS text) FROM customer_addresses WHERE customer = :customer";
    // Rewritten only when it changed: a customer who orders to the same address again writes nothing.
    private static final String SAVE = """
            INSERT INTO customer_addresses (customer, address, updated_at) VALUES (:customer, CAST(:address AS jsonb), :at)
            ON CONFLICT (customer) DO UPDATE SET address = excluded.address, updated_at = excluded.updated_at
            WHERE customer_addresses.address IS DISTINCT FROM excluded.address""";

    private final EntityManager db;
    private final StoredJson json;

    public AddressStore(EntityManager db, StoredJson json) {
        this.db = db;
        this.json = json;
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<ShippingAddress> saved(String customer) {
        List<?> rows = db.createNativeQuery(FIND).setParameter("customer", customer).getResultList();
        return rows.stream().findFirst().map(row -> read((String) row));
    }

    /** Keeps the address as the customer's, in the caller's transaction (the order's that names it). */
    @Transactional(Transactional.TxType.MANDATORY)
    public void save(String customer, ShippingAddress address) {
        db.createNativeQuery(SAVE).setParameter("customer", customer).setParameter("address", write(address))
                .setParameter("at", Instant.now()).executeUpdate();
    }

    /** The address as JSON, as orders and shipment requests store it. */
    public String write(ShippingAddress address) {
        try {
            return json.write(address);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A shipping address could not be written as JSON", e);
        }
    }

    /** An address as stored, also by a newer release with fields this one does not know. */
    public ShippingAddress read(String stored) {
        try {
            return json.read(stored, ShippingAddress.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A stored shipping address could not be read", e);
        }
    }
}
