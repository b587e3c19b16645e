package io.orderflow.catalog;

import java.math.BigDecimal;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.hibernate.annotations.Immutable;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A product of the catalog as stored. Read-only to Hibernate: every change is a guarded SQL UPDATE
 * ({@link Catalog}, {@link Stock}), so a loaded product can never write back a stale stock count.
 */
@Entity
@Immutable
@Table(name = "products")
public class Product extends PanacheEntityBase {

    @Id
    @Column(length = 64)
    public String sku;

    @Column(length = 200)
    public String name;

    @Column(length = 2000)
    public String description;

    @Column(precision = 19, scale = 4)
    public BigDecimal price;

    @Column(length = 3)
    @JdbcTypeCode(SqlTypes.CHAR)
    public String currency;

    public boolean active;

    @Column(name = "on_hand")
    public int onHand;

    public int reserved;

    public long version;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** What new orders may still reserve. */
    public int available() {
        return onHand - reserved;
    }
}
