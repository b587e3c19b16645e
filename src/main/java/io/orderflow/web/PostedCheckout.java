package io.orderflow.web;

import java.util.List;

import org.jboss.resteasy.reactive.RestForm;

/**
 * The checkout form as posted: its order token, one entry per product (the sku, the quantity typed and the price and
 * currency shown) and the delivery address.
 */
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

    @RestForm
    public String addressName;

    @RestForm
    public String addressLine1;

    @RestForm
    public String addressLine2;

    @RestForm
    public String addressCity;

    @RestForm
    public String addressRegion;

    @RestForm
    public String addressPostalCode;

    @RestForm
    public String addressCountry;

    @RestForm
    public String addressPhone;

    AddressForm address() {
        return AddressForm.posted(addressName, addressLine1, addressLine2, addressCity, addressRegion, addressPostalCode, addressCountry,
                addressPhone);
    }

    Cart cart() {
        return Cart.posted(skus, quantities, prices, currencies);
    }
}
