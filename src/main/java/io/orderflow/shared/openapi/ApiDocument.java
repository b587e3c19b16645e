package io.orderflow.shared.openapi;

/** The names by which the resources refer to the document's security schemes, tags and shared schemas (see package-info, AmountSchemas). */
public final class ApiDocument {

    public static final String BASIC = "basic";
    public static final String BEARER = "bearer";
    public static final String SANDBOX_KEY = "sandboxKey";
    public static final String PROVIDER_SIGNATURE = "providerSignature";
    public static final String PROBLEM = "Problem";
    /** An amount as the API answers it: a decimal string (see AmountSchemas). */
    public static final String AMOUNT = "Amount";
    /** An amount as the API takes it: a decimal string or a JSON number. */
    public static final String AMOUNT_INPUT = "AmountInput";

    public static final String ORDERS = "orders";
    public static final String PRODUCTS = "products";
    public static final String OPERATIONS = "operations";
    public static final String SANDBOX = "sandbox";

    private ApiDocument() {
    }
}
