package io.orderflow.order;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;

import org.hibernate.annotations.Generated;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.UuidGenerator;
import org.hibernate.type.SqlTypes;

import io.orderflow.customer.ShippingAddress;
import io.orderflow.lifecycle.OrderStatus;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

@Entity
@Table(name = "orders")
public class Order extends PanacheEntityBase {

    @Id
    @GeneratedValue
    @UuidGenerator(style = UuidGenerator.Style.VERSION_7)
    public UUID id;

    @Generated
    @Column(name = "order_number", insertable = false, updatable = false)
    public long orderNumber;

    public String customer;

    @Column(name = "token_hash", length = 64)
    @JdbcTypeCode(SqlTypes.CHAR)
    public String tokenHash;

    @Column(name = "request_fingerprint", length = 64)
    @JdbcTypeCode(SqlTypes.CHAR)
    public String requestFingerprint;

    @Column(length = 16)
    @Convert(converter = OrderStatusConverter.class)
    public OrderStatus status;

    @Column(length = 3)
    @JdbcTypeCode(SqlTypes.CHAR)
    public String currency;

    @Column(name = "total_amount", precision = 19, scale = 4)
    public BigDecimal totalAmount;

    public long version;

    /** Whether creating the order reserved its items' stock (orders from before the catalog did not). */
    @Column(name = "stock_reserved")
    public boolean stockReserved;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** When a created order expires unless paid. */
    @Column(name = "pay_by")
    public Instant payBy;

    /** When a shipped order is confirmed delivered unless delivered before (null until shipped). */
    @Column(name = "deliver_by")
    public Instant deliverBy;

    /** Where the order goes, as it was when ordered; null for orders placed before addresses were kept. */
    @Column(name = "shipping_address", insertable = false, updatable = false)
    @Convert(converter = ShippingAddressConverter.class)
    public ShippingAddress shippingAddress;

    @ElementCollection
    @CollectionTable(name = "order_items", joinColumns = @JoinColumn(name = "order_id"))
    @OrderColumn(name = "line_no")
    public List<OrderLine> items = new ArrayList<>();

    /** A set, not a list, so that one statement can fetch it with the items (two lists would be a cartesian product). */
    @OneToMany(mappedBy = "order")
    @OrderBy("id")
    public Set<OrderTransition> history = new LinkedHashSet<>();
}
