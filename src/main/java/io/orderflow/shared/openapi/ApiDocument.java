package io.orderflow.shared.openapi;

/** The names by which the resources refer to the document's security schemes, tags and Problem schema (see package-info). */
public final class ApiDocument {

    public static final String BASIC = "basic";
    public static final String BEARER = "bearer";
    public static final String SANDBOX_KEY = "sandboxKey";
    public static final String PROBLEM = "Problem";

    public static final String ORDERS = "orders";
    public static final String PRODUCTS = "products";
    public static final String OPERATIONS = "operations";
    public static final String SANDBOX = "sandbox";

    private ApiDocument() {
    }
}
