package io.orderflow.customer;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.orderflow.shared.StoredJson;

/**
 * Each customer's shipping address: the one their last order named, used for an order that names none.
 * Customers are users or bearer tokens' subjects, so the table is keyed by the name alone. An order keeps the
 * address it names in the statement that stores it (the order package's).
 */
@ApplicationScoped
public class AddressStore {

    private static final String FIND = "SELECT CAST(address AS text) FROM customer_addresses WHERE customer = :customer";

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
