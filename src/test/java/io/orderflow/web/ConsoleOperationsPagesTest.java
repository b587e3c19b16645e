package io.orderflow.web;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.asProviderClient;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.web.WebCheckoutTest.browser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.orderflow.support.FakeProviders;
import io.orderflow.support.FakeProviders.Reply;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;

/**
 * The staff console's operations pages: the outbox's dead letters, retried one by one or all that were shown; refunds the
 * provider refused for good, settled through a form that is safe to submit twice; and reconciliation, run now. Customers
 * are refused them all, and an id that is no id or names nothing is answered with a page, never an error.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
@WithTestResource(FakeProviders.class)
class ConsoleOperationsPagesTest {

    private static final String DEAD_LETTERS = "/console/dead-letters";
    private static final String REFUNDS = "/console/refunds";
    private static final String RECONCILIATION = "/console/reconciliation";
    private static final String SHIPMENTS = "/warehouse/shipments";
    private static final Pattern SHOWN_ID = Pattern.compile("<input type=\"hidden\" name=\"id\" value=\"(\\d+)\">");
    private static final Duration WITHIN = Duration.ofSeconds(15);

    @AfterEach
    void providersAnswerNormally() {
        FakeProviders.clearScripts();
    }

    @Test
    void aDeadLetterIsShownWithItsErrorRetriedAndLeavesTheList() {
        String key = deadShipment();
        String id = outboxId(key);
        WebCheckoutTest.Browser ops = browser("ops");

        String shown = ops.get(DEAD_LETTERS).then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        assertThat(shown).contains("<h1>Dead letters</h1>", "<tr id=\"dead-letter-" + id + "\">", key, "<code>provider-unavailable</code>: The provider answered 503",
                "action=\"/console/dead-letters/" + id + "/retry\"", "href=\"/console/orders/");

        String back = ops.form().post(DEAD_LETTERS + "/" + id + "/retry").then().statusCode(303).extract().header("Location");
        assertThat(back).endsWith(DEAD_LETTERS + "?retried=" + id);
        assertThat(ops.get(back).asString()).contains("role=\"status\">Dead letter " + id + " is back in line with fresh attempts.");
        // The warehouse answers again: the retry delivers it.
        await().atMost(WITHIN).until(() -> "DELIVERED".equals(Orders.value("SELECT status FROM outbox_all WHERE idempotency_key = ?", key)));
        assertThat(ops.get(DEAD_LETTERS).asString()).doesNotContain(key);

        // The same form again (a double click, the back button): nothing more is done, and the page says so.
        String again = ops.form().post(DEAD_LETTERS + "/" + id + "/retry").then().statusCode(303).extract().header("Location");
        assertThat(ops.get(again).asString()).contains("Message " + id + " is not a dead letter (any more): nothing was done.");
        assertThat(Orders.value("SELECT attempts FROM outbox_all WHERE idempotency_key = ?", key)).isEqualTo("1");
    }

    @Test
    void retryingAllShownRetriesExactlyTheDeadLettersThePageShowed() {
        String first = deadShipment();
        String second = deadShipment();
        WebCheckoutTest.Browser ops = browser("ops");
        List<String> shown = new ArrayList<>();
        Matcher ids = SHOWN_ID.matcher(ops.get(DEAD_LETTERS).asString());
        while (ids.find()) {
            shown.add(ids.group(1));
        }
        assertThat(shown).contains(outboxId(first), outboxId(second));
        // Dead after the page was shown: not the staff member's to retry yet.
        String later = deadShipment();

        var form = ops.form();
        shown.forEach(id -> form.formParam("id", id));
        String back = form.post(DEAD_LETTERS + "/retry").then().statusCode(303).extract().header("Location");
        assertThat(back).endsWith(DEAD_LETTERS + "?retriedShown=" + shown.size() + "&shown=" + shown.size());
        assertThat(ops.get(back).asString()).contains("Retried " + shown.size() + " of the " + shown.size() + " shown");

        assertThat(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", later)).isEqualTo("DEAD");
        await().atMost(WITHIN).until(() -> "2".equals(Orders.value(
                "SELECT count(*) FROM outbox_all WHERE idempotency_key IN (?, ?) AND status = 'DELIVERED'", first, second)));
        assertThat(ops.get(DEAD_LETTERS).asString()).doesNotContain(first).doesNotContain(second).contains(later);

        // Posted again: those are no longer dead letters, and the one that died since is still left alone.
        var again = ops.form();
        shown.forEach(id -> again.formParam("id", id));
        again.post(DEAD_LETTERS + "/retry").then().statusCode(303).header("Location", containsString("retriedShown=0&"));
        assertThat(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", later)).isEqualTo("DEAD");
    }

    @Test
    void aRefusedRefundIsListedAndSettledOnceThroughItsForm() {
        String order = newOrder("alice");
        act("alice", order, "pay").then().statusCode(200);
        String key = "refund:" + order;
        FakeProviders.outage("/payments/refunds", Reply.json(400, """
                {"error":{"type":"invalid_request_error","code":"charge_already_refunded","message":"Charge ch_x has already been refunded."}}"""));
        act("alice", order, "cancel").then().statusCode(200);
        await().atMost(WITHIN).until(() -> "REFUSED".equals(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", key)));
        String id = outboxId(key);
        WebCheckoutTest.Browser ops = browser("ops");

        String shown = ops.get(REFUNDS).then().statusCode(200).extract().asString();
        assertThat(shown).contains("<tr id=\"refund-" + id + "\">", key, "25.00 CNY",
                "The provider refused the call with 400: charge_already_refunded: Charge ch_x has already been refunded.",
                "<label for=\"resolution-" + id + "\">Resolution</label>", "<option value=\"refunded-outside\">Given back outside the engine</option>",
                "<label for=\"note-" + id + "\">Note (why, for the record)</label>", "maxlength=\"1000\"");

        // The rules refuse a resolution they do not know, as the API does: nothing is settled.
        String refused = ops.form().formParam("resolution", "refund-it").post(REFUNDS + "/" + id + "/settle").then().statusCode(400)
                .contentType(containsString("text/html")).extract().asString();
        assertThat(refused).contains("role=\"status\">Nothing was settled: Resolution: must be refunded-outside or retry");
        ops.form().formParam("resolution", "retry").formParam("note", "x".repeat(1001)).post(REFUNDS + "/" + id + "/settle").then()
                .statusCode(400).body(containsString("Note (why, for the record): must be at most 1000 characters"));
        assertThat(settlements(id)).isEqualTo("0");

        for (int posted = 0; posted < 2; posted++) {
            ops.form().formParam("resolution", "refunded-outside").formParam("note", "Given back by hand in the dashboard.")
                    .post(REFUNDS + "/" + id + "/settle").then().statusCode(303)
                    .header("Location", endsWith(REFUNDS + "?settled=" + id + "&state=refunded-outside"));
        }
        assertThat(settlements(id)).isEqualTo("1");
        assertThat(Orders.value("SELECT settled_by || ': ' || resolution || ': ' || note FROM refund_settlements WHERE outbox_id = ?", id))
                .isEqualTo("ops: refunded-outside: Given back by hand in the dashboard.");
        assertThat(Orders.value("SELECT status FROM payments WHERE order_id = ?", order)).isEqualTo("REFUNDED");
        assertThat(ops.get(REFUNDS + "?settled=" + id + "&state=refunded-outside").asString())
                .contains("role=\"status\">Refund " + id + " is settled as given back outside the engine").doesNotContain(key);
    }

    @Test
    void reconciliationRunsNowAndShowsItsReportWithEachMismatchsKind() {
        // Reconciliation reads the charges the app's sandbox made.
        FakeProviders.forwardTo(URI.create("http://127.0.0.1:" + RestAssured.port + "/sandbox"));
        String paid = newOrder("alice");
        act("alice", paid, "pay").then().statusCode(200);
        // A charge at the provider under a key no payment of ours holds.
        String stray = "payment:" + paid + ":9";
        asProviderClient().contentType(ContentType.JSON).header("Idempotency-Key", stray)
                .body("{\"orderId\":\"" + paid + "\",\"amount\":\"25.00\",\"currency\":\"CNY\"}")
                .post("/sandbox/payments/charges").then().statusCode(201);
        WebCheckoutTest.Browser ops = browser("ops");
        ops.get(RECONCILIATION).then().statusCode(200).body(containsString("<button type=\"submit\">Run now</button>"));

        String back = ops.form().post(RECONCILIATION + "/run").then().statusCode(303).extract().header("Location");
        assertThat(back).endsWith(RECONCILIATION + "?ran=true");
        String report = ops.get(back).then().statusCode(200).extract().asString();
        assertThat(report).contains("role=\"status\">A run just finished", "<h2 id=\"latest-heading\">Newest report</h2>",
                "<td><code>unknown-charge</code></td>", "<td><code>" + stray + "</code></td>", "refund queued",
                "href=\"/console/orders/" + paid + "\"");

        ops.form().post(RECONCILIATION + "/run").then().statusCode(303);
        assertThat(ops.get(RECONCILIATION).asString()).as("the first run, now an earlier one")
                .contains("<h2 id=\"earlier-heading\">Earlier runs</h2>");
    }

    @Test
    void customersAreRefusedAllThree() {
        WebCheckoutTest.Browser alice = browser("alice");
        for (String page : List.of(DEAD_LETTERS, REFUNDS, RECONCILIATION)) {
            alice.get(page).then().statusCode(403).contentType(containsString("text/html")).body(containsString("The console is for staff."));
        }
        alice.get("/checkout");
        String before = Orders.value("SELECT count(*) FROM reconciliation_reports");
        for (String post : List.of(DEAD_LETTERS + "/1/retry", DEAD_LETTERS + "/retry", REFUNDS + "/1/settle", RECONCILIATION + "/run")) {
            alice.form().formParam("resolution", "retry").post(post).then().statusCode(403);
        }
        assertThat(Orders.value("SELECT count(*) FROM reconciliation_reports")).isEqualTo(before);
    }

    @Test
    void aFormWithoutItsTokenDoesNothingAndLeadsBackToItsPage() {
        WebCheckoutTest.Browser ops = browser("ops");
        String before = Orders.value("SELECT count(*) FROM reconciliation_reports");
        ops.request().formParam("csrf-token", "forged").post(RECONCILIATION + "/run").then().statusCode(403)
                .body(containsString("<a href=\"" + RECONCILIATION + "\" id=\"back\">"));
        ops.request().formParam("resolution", "retry").post(REFUNDS + "/1/settle").then().statusCode(403)
                .body(containsString("<a href=\"" + REFUNDS + "\" id=\"back\">"));
        assertThat(Orders.value("SELECT count(*) FROM reconciliation_reports")).isEqualTo(before);
    }

    @Test
    void anIdThatIsNoIdOrNamesNothingIsAnsweredWithAPage() {
        WebCheckoutTest.Browser ops = browser("ops");
        ops.get(DEAD_LETTERS);
        ops.form().post(DEAD_LETTERS + "/abc/retry").then().statusCode(404).contentType(containsString("text/html"));
        ops.form().formParam("resolution", "retry").post(REFUNDS + "/abc/settle").then().statusCode(404).contentType(containsString("text/html"));
        ops.form().formParam("resolution", "retry").post(REFUNDS + "/999999999/settle").then().statusCode(404)
                .body(containsString("There is no refund 999999999: nothing was settled."));
        ops.form().formParam("id", "1").formParam("id", "x").post(DEAD_LETTERS + "/retry").then().statusCode(400)
                .body(containsString("That form did not list dead letters this page showed"));
        String missing = ops.form().post(DEAD_LETTERS + "/999999999/retry").then().statusCode(303).extract().header("Location");
        assertThat(ops.get(missing).asString()).contains("Message 999999999 is not a dead letter");
        ops.get(DEAD_LETTERS + "?retried=abc").then().statusCode(404).contentType(containsString("text/html"));
        ops.get(REFUNDS + "?settled=1&state=lost").then().statusCode(404).contentType(containsString("text/html"));
        ops.get(RECONCILIATION + "?notice=%3Cscript%3E").then().statusCode(200).body(org.hamcrest.Matchers.not(containsString("<script>")));
    }

    @Test
    void thePagesSpeakChinese() {
        WebCheckoutTest.Browser ops = browser("ops");
        for (String page : List.of(DEAD_LETTERS, REFUNDS, RECONCILIATION)) {
            assertThat(ops.request().header("Accept-Language", "zh-CN").get(page).then().statusCode(200).extract().asString())
                    .contains("<html lang=\"zh-CN\">", "死信", "被拒退款", "对账");
        }
    }

    /** The key of a shipment the warehouse answered 503 at each of its attempts, once it is a dead letter. */
    static String deadShipment() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        // FakeProviders gives a message three attempts.
        FakeProviders.script(SHIPMENTS, Reply.status(503), Reply.status(503), Reply.status(503));
        act("ops", id, "ship").then().statusCode(200);
        String key = "shipment:" + id;
        await().atMost(WITHIN).until(() -> "DEAD".equals(Orders.value("SELECT status FROM outbox WHERE idempotency_key = ?", key)));
        return key;
    }

    private static String outboxId(String key) {
        return Orders.value("SELECT id FROM outbox WHERE idempotency_key = ?", key);
    }

    private static String settlements(String outboxId) {
        return Orders.value("SELECT count(*) FROM refund_settlements WHERE outbox_id = ?", outboxId);
    }
}
