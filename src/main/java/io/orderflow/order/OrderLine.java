package io.orderflow.order;

import java.math.BigDecimal;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

@Embeddable
public class OrderLine {

    @Column(length = 64)
    public String sku;

    public int quantity;

    @Column(name = "unit_price", precision = 19, scale = 4)
    public BigDecimal unitPrice;

    /** The product's name when it was ordered; null on a line a release before names wrote. */
    @Column(length = 200)
    public String name;

    protected OrderLine() {
    }

    public OrderLine(String sku, int quantity, BigDecimal unitPrice, String name) {
        this.sku = sku;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
        this.name = name;
    }
}
