package io.orderflow.order;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import io.orderflow.lifecycle.OrderStatus;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** One applied transition in an order's history. */
@Entity
@Table(name = "order_history")
public class OrderTransition extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "order_id")
    public Order order;

    @Column(name = "from_status", length = 16)
    @Convert(converter = OrderStatusConverter.class)
    public OrderStatus from;

    @Column(name = "to_status", length = 16)
    @Convert(converter = OrderStatusConverter.class)
    public OrderStatus to;

    @Column(length = 16)
    public String event;

    public Instant at;

    public String actor;

    @Column(name = "command_id")
    public String commandId;
}
