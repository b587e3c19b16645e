package io.orderflow.proof;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Bad requests to every endpoint of the API and to the web pages, drawn from a seeded random
 * source: the same seed gives the same requests. Most are nearly right (a valid request with a
 * member, a header or a few bytes spoiled), so that they get past the first checks to the deeper
 * ones; the rest are wrong throughout. Some turn out valid, as generated input does; they are
 * answered as usual.
 */
final class BadRequests {

    /**
     * What the requests aim at: alice's order token under test, a token of bob's, real orders of
     * alice and bob, a product of this run (the only one staff requests may change), the
     * cookies of signed-in browsers by user and the CSRF token those cookies carry.
     */
    record Targets(String orderToken, String bobsToken, List<String> aliceOrders, String bobsOrder, String product,
            Map<String, String> sessions, String csrfToken) {

        Targets withOrderToken(String token) {
            return new Targets(token, bobsToken, aliceOrders, bobsOrder, product, sessions, csrfToken);
        }
    }

    private static final String[] USERS = { "alice", "alice", "alice", "bob", "ops", "ops" };
    private static final String[] ACTIONS = { "pay", "pay", "ship", "deliver", "cancel", "cancel" };
    private static final String[] STATUSES = { "created", "paid", "shipped", "delivered", "cancelled" };
    private static final String[] CATALOG_SKUS = { "ABC-1", "TEA-LONGJING-250", "CAL-WALL-2025", "DECLINE-51" };
    private static final String[] PAYMENT_METHODS = { "pm_card_visa", "pm_card_chargeDeclined" };
    private static final String FORM = "application/x-www-form-urlencoded";

    private static final String[] ODD_CONTENT_TYPES = { "application/json; charset=utf-8", "application/json;charset=UTF-16",
            "application/json; charset=nonsense", "application/json; charset=", "APPLICATION/JSON", "application/problem+json",
            "application/vnd.api+json", "text/plain", "text/html", "application/xml", FORM, "multipart/form-data; boundary=xyz",
            "multipart/form-data", "application/octet-stream", "*/*", "application/*", "", ";", "json", "application/json;;",
            "application/json; q=0.5; charset=\"utf-8\"", "application/json\u00ff", "t\u0001ext/plain" };
    private static final String[] ODD_ACCEPTS = { "text/html", "application/xml", "*/*", "image/png", "application/json;q=0",
            "application/problem+json", "text/*", "", "///", "application/json, text/html;q=abc", "\u00e9/\u00e9" };
    private static final String[] ODD_AUTHORIZATIONS = { null, "Basic", "Basic ", "Basic !!!", "Basic QUxJQ0U=", "Bearer abc.def.ghi",
            "Digest username=\"alice\"", "Basic YWxpY2U6YWxpY2U= trailing", "Basic " + "QUFB".repeat(1000), "Basic \u00e9\u00e9" };
    private static final String[] ODD_MEMBER_NAMES = { "discount", "", " ", "id", "status", "customer", "totalAmount", "version",
            "CURRENCY", "items ", "__proto__", "\\u0000", "caf\u00e9" };
    private static final String[] LITERALS = { "null", "true", "false", "0", "-0", "-1", "1.5", "2.0", "1000", "1001", "2147483647",
            "2147483648", "-2147483649", "9223372036854775808", "1e400", "-1e400", "1e-400", "1E+2", "1e-9999999999", "NaN",
            "Infinity", "-Infinity", "0x10", "01", ".5", "1.", "+1", "1_000", "[]", "{}", "[null]", "[[]]", "\"\"" };
    private static final String[] AMOUNTS = { "12.505", "-1", "0", "0.00", "1e3", " 12.50", "12.50 ", "\uff11\uff12.\uff15\uff10",
            "12,50", "1000000.01", "99999999999999999.99", "12.", ".50", "0012.50", "12.50CNY", "\u00a512.50" };
    private static final String[] QUANTITIES = { "", " ", "0", "-1", "1001", "1.5", "1e3", "\uff11", "99999999999999999999", "abc",
            "0x1", " 2 ", "+2", "2,0", "\u0662" };
    private static final String[] ODD_TEXTS = { "", " ", "\t", "caf\u00e9", "\u65e5\u672c\u8a9e\u306e\u5546\u54c1", "\ud83d\ude00",
            "\u200f\u202eevil", "e\u0301", "\ufeff", "\uffff", "\ud800", "\udc00x", "\u0000", "\u0007bell", "line\nbreak", "tab\there",
            "\u2028", "\u0085", "1' OR '1'='1", "%s%n%x", "${jndi:ldap://127.0.0.1/a}", "{order.id}", "{#each}", "<script>alert(1)</script>",
            "../../../etc/passwd", "\\\\server\\share", "%00", "null", "undefined", "NaN", "-1", "\"", "\\", "\\u0000" };
    private static final String[] ODD_PATH_SEGMENTS = { "", "null", "0", "-1", "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff", "1-1-1-1-1", "..", "%2e%2e", "%2F", "%00", "%zz", "%", "%%", "%c0%af", "%ff",
            ";a=b", "a;b", "~", "*", "$", "%20", "+", "0x1F", "1e400", "12345678901234567890", "%E2%80%AE", "%F0%9F%98%80",
            "%0d%0a", "%u0041", "{id}", "..%2F..%2Fq%2Fhealth" };
    private static final String[] ODD_QUERY_PARTS = { "&", "=", "==", "&&", "a", "%zz=1", "status", "limit=", "after",
            "limit=1&limit=2", "status=created&status=paid", "%00=%00", "=x" };
    private static final String[] STRAY_METHODS = { "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "GET", "POST", "FOO", "get",
            "M-SEARCH", "PROPFIND" };

    private static final String[] INSTANTS = { "2026-01-31T00:00:00Z", "2020-02-29T23:59:59.999999Z", "1970-01-01T00:00:00Z",
            "-4713-11-24T00:00:00Z", "+294276-12-31T23:59:59.999999Z" };
    // Java reads instants far beyond PostgreSQL's 4714 BC to 294276 AD, and some only round past its ends.
    private static final String[] ODD_INSTANTS = { "+300000-01-01T00:00:00Z", "-300000-01-01T00:00:00Z", "+294277-01-01T00:00:00Z",
            "-4713-11-23T23:59:59.999999Z", "+294276-12-31T23:59:59.9999995Z", "+1000000000-12-31T23:59:59.999999999Z",
            "-1000000000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-31", "2026-01-31T00:00:00", "2026-01-31T00:00:00+08:00",
            "2026-01-31T24:00:00Z", "20260131T000000Z", "1769817600", "now", "2026-01-31T00:00:00Z ", "+2026-01-31T00:00:00Z" };

    /**
     * The query parameters of each API path that has any, as the API document declares them
     * (GeneratedBadInputTest checks that none is missing).
     */
    static final Map<String, List<String>> QUERY_PARAMETERS = Map.of("/orders",
            List.of("status", "customer", "orderNumber", "createdFrom", "createdTo", "limit", "after"),
            "/products", List.of("limit", "after"), "/products/{sku}/stock/history", List.of("limit", "after"),
            "/sandbox/payments/charges", List.of("since", "until", "after", "limit"), "/sandbox/ledger", List.of("orderId"));

    /** The share of requests, in percent, that each of {@link #areas} gets. */
    private static final int[] SHARES = { 31, 5, 10, 13, 18, 3, 13, 5, 2 };

    private final List<Supplier<RawHttp.Request>> areas = List.of(this::placeOrder, this::issueToken, this::readOrders, this::transition,
            this::products, this::reconciliation, this::webPage, this::strayMethod, this::sandbox);
    private final SplittableRandom random;
    private Targets targets;

    BadRequests(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** The next request, aimed at these targets. */
    RawHttp.Request next(Targets current) {
        this.targets = current;
        int roll = random.nextInt(100);
        for (int area = 0; ; area++) {
            roll -= SHARES[area];
            if (roll < 0) {
                return areas.get(area).get();
            }
        }
    }

    // ---------------------------------------------------------------- the API

    private RawHttp.Request placeOrder() {
        RawHttp.Request request = api("POST", "/orders", pick("alice", "alice", "alice", "alice", "bob", "ops"));
        orderToken(request);
        if (chance(30)) {
            idempotencyKey(request);
        }
        return withJson(request, this::orderBody);
    }

    private RawHttp.Request issueToken() {
        RawHttp.Request request = api("POST", "/orders/token", pick(USERS));
        if (chance(30)) {
            idempotencyKey(request);
        }
        return chance(50) ? request : withJson(request, this::junkValue);
    }

    private RawHttp.Request readOrders() {
        String user = pick(USERS);
        if (chance(50)) {
            return api("GET", "/orders/" + orderId(), user);
        }
        return api("GET", withQuery("/orders"), user);
    }

    private RawHttp.Request transition() {
        String action = chance(90) ? pick(ACTIONS) : pick("refund", "PAY", "pay/", "pay%00", "", "expire", "confirm", "pay;x=1");
        RawHttp.Request request = api("POST", "/orders/" + orderId() + "/" + action, pick(USERS));
        if (chance(85)) {
            idempotencyKey(request);
        }
        int body = random.nextInt(100);
        if (body < 40) {
            return request;
        }
        return body < 75 ? withJson(request, () -> object("paymentMethod", value(jsonString(pick(PAYMENT_METHODS))))) : withJson(request, this::junkValue);
    }

    private RawHttp.Request products() {
        int roll = random.nextInt(100);
        if (roll < 25) {
            return api("GET", withQuery("/products"), pick(USERS));
        } else if (roll < 40) {
            String sku = chance(30) ? pick(CATALOG_SKUS) : changeableSku();
            return chance(25) ? api("GET", "/products/" + sku + "/stock/history" + query("limit", "after"), pick(USERS))
                    : api("GET", "/products/" + sku, pick(USERS));
        }
        String user = chance(85) ? "ops" : pick("alice", "bob");
        if (roll < 60) {
            return withJson(api("POST", "/products", user), () -> productBody(true));
        } else if (roll < 80) {
            return withJson(api("PUT", "/products/" + changeableSku(), user), () -> productBody(false));
        }
        RawHttp.Request adjust = api("POST", "/products/" + changeableSku() + "/stock", user);
        return withJson(adjust, () -> object("delta", value(pick("1", "5", "-1", "10")), "reason",
                value(jsonString(pick("recount", "damaged in transit", "found two more")))));
    }

    private RawHttp.Request reconciliation() {
        RawHttp.Request request = api(pick("GET", "POST"), "/payments/reconciliation", pick("alice", "bob", "ops", "ops"));
        if (request.method.equals("POST") && chance(50)) {
            if (chance(50)) {
                idempotencyKey(request);
            }
            return withJson(request, this::junkValue);
        }
        return request;
    }

    private RawHttp.Request strayMethod() {
        String path = pick("/orders", "/orders/token", "/orders/" + orderId(), "/orders/" + orderId() + "/pay", "/products",
                "/products/ABC-1", "/products/" + targets.product() + "/stock", "/payments/reconciliation", "/checkout", "/q/health",
                "/sandbox/ledger?orderId=" + orderId(), "/", "/nope", "/orders/token/x", "/orders//pay", "//orders");
        RawHttp.Request request = api(pick(STRAY_METHODS), path, pick(USERS));
        return chance(40) ? withJson(request, this::junkValue) : request;
    }

    /** The sandbox's lists: charges in a time window (as the reconciliation asks for them) and an order's ledger, both for staff. */
    private RawHttp.Request sandbox() {
        return api("GET", withQuery(chance(80) ? "/sandbox/payments/charges" : "/sandbox/ledger"), "ops");
    }

    /** A request as an API client sends it, as {@code user}, with its Authorization and Accept now and then spoiled. */
    private RawHttp.Request api(String method, String target, String user) {
        RawHttp.Request request = new RawHttp.Request(method, target);
        if (chance(92)) {
            request.header("Authorization", basic(user + ":" + user));
        } else if (chance(70)) {
            String authorization = pick(ODD_AUTHORIZATIONS);
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
        } else {
            request.header("Authorization", basic(pick(user + ":wrong", user, ":", "nobody:nobody", junkText() + ":" + user)));
        }
        if (chance(88)) {
            request.header("Accept", "application/json");
        } else if (chance(80)) {
            request.header("Accept", pick(ODD_ACCEPTS));
        }
        if (chance(4)) {
            request.header(pick("User-Agent", "X-Request-Id", "Accept-Language", "Accept-Charset", "Origin"), junkHeaderValue());
        }
        return request;
    }

    /** Usually alice's token under test, also spoiled, twice, bob's, junk or none. */
    private void orderToken(RawHttp.Request request) {
        String token = targets.orderToken();
        int roll = random.nextInt(100);
        if (roll < 60) {
            request.header("Order-Token", token);
        } else if (roll < 65) {
            request.header("Order-Token", targets.bobsToken());
        } else if (roll < 70) {
            request.header("Order-Token", token).header("Order-Token", chance(50) ? token : junkHeaderValue());
        } else if (roll < 80) {
            int at = random.nextInt(token.length());
            request.header("Order-Token", pick(token.substring(0, at) + (token.charAt(at) == 'A' ? 'B' : 'A') + token.substring(at + 1),
                    token.substring(1), token + "A", token.toUpperCase(Locale.ROOT), " " + token + " ", "\"" + token + "\"", token + "," + token,
                    token + "\u0000"));
        } else if (roll < 92) {
            request.header("Order-Token", junkHeaderValue());
        }
    }

    private void idempotencyKey(RawHttp.Request request) {
        int roll = random.nextInt(100);
        if (roll < 45) {
            request.header("Idempotency-Key", "k-" + Long.toHexString(random.nextLong()));
        } else if (roll < 60) {
            // A few keys used again and again, bare and quoted, so that replays and reused keys are met too.
            request.header("Idempotency-Key", pick("k1", "\"k1\"", "k2", "\"k\\\"2\""));
        } else if (roll < 65) {
            request.header("Idempotency-Key", "k-" + Long.toHexString(random.nextLong())).header("Idempotency-Key", junkHeaderValue());
        } else {
            request.header("Idempotency-Key", junkHeaderValue());
        }
    }

    // ---------------------------------------------------------------- JSON bodies

    private String orderBody() {
        int count = chance(94) ? 1 + random.nextInt(3) : pickNumber(0, 100, 101, 150);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(orderItem());
        }
        return object("currency", value(jsonString(pick("CNY", "CNY", "CNY", "USD", "JPY"))), "items", value("[" + String.join(",", items) + "]"));
    }

    private String orderItem() {
        String sku = chance(50) ? "ABC-1" : pick(targets.product(), "TEA-LONGJING-250", "CAL-WALL-2025", "DECLINE-51");
        String quantity = value(String.valueOf(1 + random.nextInt(3)));
        if (sku.equals("ABC-1") && chance(50)) {
            return object("sku", value(jsonString(sku)), "quantity", quantity, "unitPrice", value(pick("\"12.50\"", "\"12.5\"", "12.5", "12.50")));
        }
        return object("sku", value(jsonString(sku)), "quantity", quantity);
    }

    private String productBody(boolean create) {
        String sku = value(jsonString(chance(80) ? "G-" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36) : targets.product()));
        String name = value(jsonString(pick("Generated product", "Teapot", "\u7eff\u8336", "A".repeat(200))));
        String description = value(jsonString(pick("", "Made by the bad input proof.", "two\nlines", "tab\there")));
        String price = value(pick("\"10.00\"", "10", "\"0.01\"", "\"1000000\"", "9.99"));
        String currency = value(jsonString(pick("CNY", "CNY", "USD", "JPY")));
        String active = value(pick("true", "false"));
        String onHand = value(pick("0", "5", "1000", "1000000"));
        if (create || chance(10)) {
            return object("sku", sku, "name", name, "description", description, "price", price, "currency", currency, "onHand", onHand,
                    "active", active);
        }
        return object("name", name, "description", description, "price", price, "currency", currency, "active", active);
    }

    /** A JSON object of these members and values, with now and then a member left out, given twice or added. */
    private String object(String... membersAndValues) {
        List<String> members = new ArrayList<>();
        for (int i = 0; i < membersAndValues.length; i += 2) {
            int roll = random.nextInt(100);
            if (roll < 4) {
                continue;
            }
            if (roll < 7) {
                members.add(jsonString(membersAndValues[i]) + ":" + junkValue());
            }
            members.add(jsonString(membersAndValues[i]) + ":" + membersAndValues[i + 1]);
        }
        if (chance(5)) {
            members.add(random.nextInt(members.size() + 1), jsonString(pick(ODD_MEMBER_NAMES)) + ":" + junkValue());
        }
        return "{" + String.join(",", members) + "}";
    }

    /** The good value mostly, else junk. */
    private String value(String good) {
        return chance(82) ? good : junkValue();
    }

    private String junkValue() {
        switch (random.nextInt(10)) {
            case 0:
            case 1:
                return pick(LITERALS);
            case 2:
                // Up to past Jackson's limit of 1000 digits.
                return (chance(50) ? "-" : "") + "9".repeat(1 + random.nextInt(1200)) + (chance(30) ? "." + "1".repeat(random.nextInt(40)) : "");
            case 3:
                return jsonString(pick(AMOUNTS));
            case 4:
                return pick("0", "-1", "1001", "100000000000", "-2147483648", "3.000");
            case 5:
                return "[" + pick(LITERALS) + "," + jsonString(junkText()) + "]";
            case 6:
                return "{\"sku\":" + jsonString(junkText()) + ",\"quantity\":" + pick(LITERALS) + "}";
            case 7:
                int depth = pickNumber(10, 100, 999, 1000, 1001, 5000, 20000);
                return chance(50) ? "[".repeat(depth) + "]".repeat(depth) : "{\"a\":".repeat(depth) + "1" + "}".repeat(depth);
            default:
                // A raw string, not escaped: control characters and quotes as they are, which JSON refuses.
                return chance(15) ? "\"" + junkText() + "\"" : jsonString(junkText());
        }
    }

    /** A JSON string literal of the text, escaped so that every character arrives as written (lone surrogates included). */
    private static String jsonString(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20 || Character.isSurrogate(c)) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }

    /** The body a document makes, now and then spoiled as bytes, or a wholly wrong one; sent with a JSON type mostly. */
    private RawHttp.Request withJson(RawHttp.Request request, Supplier<String> document) {
        int type = random.nextInt(100);
        String contentType = type < 82 ? "application/json" : type < 86 ? null : pick(ODD_CONTENT_TYPES);
        return request.body(contentType, chance(92) ? spoiled(document.get()) : wrongDocument());
    }

    private byte[] spoiled(String json) {
        if (chance(75) || json.isEmpty()) {
            return utf8(json);
        }
        int at = random.nextInt(json.length());
        switch (random.nextInt(9)) {
            case 0:
                return utf8(json.substring(0, at));
            case 1:
                return utf8(json.substring(0, at) + json.substring(at + 1));
            case 2:
                return utf8(json.substring(0, at) + pick("{", "}", "[", "]", "\"", ",", ":", "\\", "\u0000", "\u00e9", "\t", "/*", "'")
                        + json.substring(at));
            case 3:
                return utf8(json.replace('"', '\''));
            case 4:
                return utf8(json + pick(" garbage", json, ",", "}", "\u0000", "\n\n\n"));
            case 5:
                return utf8(pick("\ufeff", "[", " ", "/* c */", ")]}'\n") + json);
            case 6:
                return json.getBytes(pick(StandardCharsets.UTF_16, StandardCharsets.UTF_16LE, StandardCharsets.ISO_8859_1));
            case 7:
                // Bytes that are no UTF-8 at all.
                byte[] bytes = utf8(json);
                bytes[Math.min(at, bytes.length - 1)] = (byte) pickNumber(0xff, 0xc3, 0x80, 0xed, 0xf8);
                return bytes;
            default:
                return utf8(json.substring(0, at) + json.substring(at).toUpperCase(Locale.ROOT));
        }
    }

    private byte[] wrongDocument() {
        return utf8(pick("", " ", "null", "[]", "42", "\"an order\"", "{", "}", "{}", "{\"currency\":}", "[" + junkValue() + "]",
                junkValue(), "\u0000", "{\"items\":[" + "1,".repeat(60_000) + "1]}", "currency=CNY&items=ABC-1",
                "<order><currency>CNY</currency></order>"));
    }

    // ---------------------------------------------------------------- the web pages

    private RawHttp.Request webPage() {
        String orderId = orderId();
        int roll = random.nextInt(100);
        if (roll < 30) {
            return form(browser("POST", "/checkout"), checkoutForm());
        } else if (roll < 42) {
            return form(browser("POST", "/checkout/review"), checkoutForm());
        } else if (roll < 67) {
            String action = chance(92) ? pick(ACTIONS) : pick("refund", "PAY", "", "pay%00");
            List<String> fields = new ArrayList<>();
            field(fields, "commandId", chance(65) ? UUID.nameUUIDFromBytes(longBytes()).toString() : junkHeaderValue());
            field(fields, "paymentMethod", chance(60) ? pick(PAYMENT_METHODS) : junkText());
            return form(browser("POST", "/checkout/orders/" + orderId + "/" + action), fields);
        } else if (roll < 77) {
            return browser("GET", "/checkout/orders" + query("after"));
        } else if (roll < 87) {
            return browser("GET", "/checkout/orders/" + orderId + query("notice"));
        } else if (roll < 94) {
            return browser("GET", pick("/checkout", "/", "/login" + query("error")));
        }
        List<String> fields = new ArrayList<>();
        field(fields, "j_username", pick("alice", "ops", junkText()));
        field(fields, "j_password", pick("wrong", "", junkText()));
        return form(new RawHttp.Request("POST", "/j_security_check"), fields);
    }

    /** A request as a browser sends it, signed in mostly (as alice or staff), else without or with a spoiled session. */
    private RawHttp.Request browser(String method, String target) {
        RawHttp.Request request = new RawHttp.Request(method, target).header("Accept", chance(90) ? "text/html" : pick(ODD_ACCEPTS));
        int roll = random.nextInt(100);
        if (roll < 85) {
            request.header("Cookie", targets.sessions().get(pick("alice", "alice", "ops")));
        } else if (roll < 93) {
            request.header("Cookie", "quarkus-credential=" + pick(junkHeaderValue(), "A".repeat(300), "%00"));
        }
        return request;
    }

    /** The checkout form: the token under test mostly, and a few products each with quantity, shown price and currency, some spoiled. */
    private List<String> checkoutForm() {
        List<String> fields = new ArrayList<>();
        int token = random.nextInt(100);
        if (token < 55) {
            field(fields, "token", targets.orderToken());
        } else if (token < 85) {
            field(fields, "token", junkText());
        }
        int products = chance(95) ? random.nextInt(5) : 300;
        for (int i = 0; i < products; i++) {
            String sku = chance(60) ? "ABC-1" : chance(50) ? targets.product() : junkText();
            field(fields, "sku", sku);
            field(fields, "quantity", chance(75) ? String.valueOf(random.nextInt(4)) : pick(QUANTITIES));
            field(fields, "unitPrice", chance(75) ? (sku.equals("ABC-1") ? "12.50" : "10.00") : pick(AMOUNTS));
            field(fields, "currency", chance(85) ? "CNY" : pick("USD", "", "cny", junkText()));
        }
        return fields;
    }

    /** Adds a form field, left out now and then. */
    private void field(List<String> fields, String name, String value) {
        if (chance(94)) {
            fields.add(percentEncoded(name) + "=" + (chance(95) ? percentEncoded(value) : pick("%zz", "%", "%ff", "%c0%af", "a=b=c", "&&", value)));
        }
    }

    private RawHttp.Request form(RawHttp.Request request, List<String> fields) {
        if (!request.target.startsWith("/j_security_check")) {
            // The pages' forms carry their CSRF token, so that most requests reach the form's own checks.
            field(fields, "csrf-token", chance(90) ? targets.csrfToken() : junkText());
        }
        String contentType = chance(88) ? FORM : pick(ODD_CONTENT_TYPES);
        String body = chance(95) ? String.join("&", fields) : pick("", "&&&", "=", "%zz", "token", "\u0000=\u0000");
        return request.body(contentType, utf8(body));
    }

    // ---------------------------------------------------------------- addresses, headers and text

    /** A real order now and then (of alice or bob, so also one the caller may not see), else something that is no order id. */
    private String orderId() {
        int roll = random.nextInt(100);
        if (roll < 25) {
            return chance(75) ? pick(targets.aliceOrders().toArray(String[]::new)) : targets.bobsOrder();
        }
        String real = targets.aliceOrders().get(0);
        if (roll < 35) {
            return pick(real.toUpperCase(Locale.ROOT), real.replace("-", ""), real.substring(1), real + "0", "%7B" + real + "%7D", "urn:uuid:" + real,
                    real + "%00", real + "%20", " " + real);
        }
        if (roll < 45) {
            return UUID.nameUUIDFromBytes(longBytes()).toString();
        }
        return chance(60) ? pick(ODD_PATH_SEGMENTS) : chance(50) ? percentEncoded(junkText()) : "x".repeat(pickNumber(100, 1000, 5000));
    }

    /** The product of this run mostly, else no sku at all: staff requests never change the demo catalog that other tests price from. */
    private String changeableSku() {
        return chance(60) ? targets.product() : chance(50) ? pick(ODD_PATH_SEGMENTS) : percentEncoded(junkText() + "-NO-SUCH");
    }

    /** The path with a query string of its parameters in the API document. */
    private String withQuery(String path) {
        return path + query(QUERY_PARAMETERS.get(path).toArray(String[]::new));
    }

    /** A query string of some of these parameters, each left out, right, wrong or repeated, with now and then a stray part. */
    private String query(String... names) {
        List<String> parts = new ArrayList<>();
        for (String name : names) {
            int roll = random.nextInt(100);
            if (roll < 35) {
                continue;
            }
            String value = roll < 55 ? goodParameter(name) : junkParameter(name);
            parts.add(name + "=" + (chance(92) ? percentEncoded(value) : value.replace(' ', '+')));
            if (chance(5)) {
                parts.add(name + "=" + percentEncoded(junkParameter(name)));
            }
        }
        if (chance(6)) {
            parts.add(pick(ODD_QUERY_PARTS));
        }
        return parts.isEmpty() ? "" : "?" + String.join("&", parts);
    }

    private String goodParameter(String name) {
        switch (name) {
            case "status":
                return pick(STATUSES);
            case "limit":
                return pick("1", "20", "100");
            case "after":
                return cursor(pick(targets.aliceOrders().get(0), targets.bobsOrder(), "ABC-1", targets.product()));
            case "since":
            case "until":
            case "createdFrom":
            case "createdTo":
                return pick(INSTANTS);
            case "customer":
                return pick(USERS);
            case "orderNumber":
                return pick("100001", "100002", "1", "9223372036854775807");
            case "orderId":
                return pick(targets.aliceOrders().get(0), targets.bobsOrder());
            default:
                return pick("payment-declined", "invalid-transition", "true", "x");
        }
    }

    private String junkParameter(String name) {
        switch (name) {
            case "status":
                return pick("CREATED", "expired", "created,paid", " created", "created ", "Created", junkText());
            case "limit":
                return pick("0", "101", "-1", "1.5", "1e2", "", "+5", "0x10", "\uff12\uff10", "99999999999999999999", "20 ", "null", "NaN");
            case "after":
                return pick("", "=", "====", "!!!", "A".repeat(5000), cursor("not a position"), cursor(junkText()),
                        Base64.getEncoder().encodeToString(longBytes()) + "+/", cursor(targets.aliceOrders().get(0) + "x"), "0", "-1",
                        "9223372036854775808");
            case "since":
            case "until":
            case "createdFrom":
            case "createdTo":
                return chance(80) ? pick(ODD_INSTANTS) : junkText();
            case "orderNumber":
                return pick("0", "-1", "1.5", "1e5", "", "+5", "#100001", "\uff11\uff10\uff10", "9223372036854775808", "100001 ", "null");
            default:
                return junkText();
        }
    }

    private String junkHeaderValue() {
        if (chance(30)) {
            // Header lines end at CR or LF: those would start a new header rather than spoil this one.
            return junkText().replace('\r', ' ').replace('\n', ' ');
        }
        return pick("", " ", "\t", "a b", "a,b", "\"quoted\"", "\"unterminated", "\"bad\\escape\"", "\"\"", "x".repeat(255), "x".repeat(256),
                "x".repeat(8000), "x".repeat(30_000), "\u043a\u043b\u044e\u0447", "\ud83d\ude00", "\u0001", "\u007f", "\u0000", "tab\tinside",
                "\u00e9", "null", "\u00ff\u00fe", ";", "=", "%00");
    }

    /** Odd text: empty, unicode of every kind, control characters, hostile strings, long, random characters or near-skus. */
    private String junkText() {
        String text;
        switch (random.nextInt(6)) {
            case 0:
            case 1:
                text = pick(ODD_TEXTS);
                break;
            case 2:
                text = pick("A", "\u00e9", "\u4e2d", "\ud83d\ude00").repeat(pickNumber(64, 65, 200, 201, 255, 256, 2000, 2001, 70_000));
                break;
            case 3:
                text = randomCharacters(1 + random.nextInt(40));
                break;
            default:
                StringBuilder sku = new StringBuilder();
                for (int i = 1 + random.nextInt(70); i > 0; i--) {
                    sku.append("ABCXYZabcxyz0123456789._-".charAt(random.nextInt(25)));
                }
                text = sku.toString();
        }
        // Random text that happened to spell something the answers are searched for would look like a leak when echoed.
        return Leaks.in(text).isEmpty() ? text : "x";
    }

    private String randomCharacters(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int range = random.nextInt(6);
            int from = new int[] { 0x20, 0x00, 0xa0, 0x4e00, 0xd800, 0x1f600 }[range];
            int span = new int[] { 0x5f, 0x20, 0x60, 0x200, 0x800, 0x50 }[range];
            text.appendCodePoint(from + random.nextInt(span));
        }
        return text.toString();
    }

    // ---------------------------------------------------------------- small helpers

    private boolean chance(int percent) {
        return random.nextInt(100) < percent;
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }

    private int pickNumber(int... options) {
        return options[random.nextInt(options.length)];
    }

    private byte[] longBytes() {
        return Long.toString(random.nextLong()).getBytes(StandardCharsets.US_ASCII);
    }

    private static String basic(String credentials) {
        return "Basic " + Base64.getEncoder().encodeToString(utf8(credentials));
    }

    private static String cursor(String position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(utf8(position));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Percent-encodes all but the unreserved characters of RFC 3986, as UTF-8. */
    private static String percentEncoded(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : utf8(text)) {
            int c = b & 0xff;
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(String.format("%02X", c));
            }
        }
        return encoded.toString();
    }
}
