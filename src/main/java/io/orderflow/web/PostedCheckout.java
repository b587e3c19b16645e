package io.orderflow.web;

import java.util.List;

import org.jboss.resteasy.reactive.RestForm;

/** The checkout form as posted: its order token and, one entry per product, the sku, the quantity typed and the price and currency shown. */
public class PostedCheckout {

    @RestForm
    public String token;

    @RestForm("sku")
    public List<String> skus;

    @RestForm("quantity")
    public List<String> quantities;

    @RestForm("unitPrice")
    public List<String> prices;

    @RestForm("currency")
    public List<String> currencies;

    Cart cart() {
        return Cart.posted(skus, quantities, prices, currencies);
    }
}
