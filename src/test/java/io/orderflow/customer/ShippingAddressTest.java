package io.orderflow.customer;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newToken;
import static io.orderflow.support.Api.placeOrder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * Every order knows where it goes: the address it names, which the customer keeps for the next order, or the
 * customer's saved one; with neither, nothing is ordered. The warehouse is sent the order's address.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ShippingAddressTest {

    private static final String SHANGHAI = """
            {"name":"  Han Meimei ","lines":["Room 5, 77 Wulumuqi Road"," Xuhui District"],"city":"Shanghai","region":"",
             "postalCode":"200031","country":"CN","phone":"+86 21 5555 0199"}""";
    private static final String WITHOUT_ADDRESS = """
            {"currency":"CNY","items":[{"sku":"ABC-1","quantity":1}]}""";

    @Test
    void anOrderNamingAnAddressShipsThereAndTheCustomerKeepsItForTheNextOrder() {
        String customer = newCustomer();
        String first = placeOrder(customer, newToken(customer), order(SHANGHAI)).then().statusCode(201)
                .body("customer", equalTo(customer))
                .body("shippingAddress.name", equalTo("Han Meimei"))
                .body("shippingAddress.lines", containsInAnyOrder("Room 5, 77 Wulumuqi Road", "Xuhui District"))
                .body("shippingAddress.region", nullValue())
                .body("shippingAddress.country", equalTo("CN"))
                .extract().path("id");

        String second = placeOrder(customer, newToken(customer), WITHOUT_ADDRESS).then().statusCode(201)
                .body("shippingAddress.name", equalTo("Han Meimei"))
                .body("shippingAddress.postalCode", equalTo("200031"))
                .extract().path("id");

        as(customer).get("/orders/{id}", first).then().statusCode(200).body("shippingAddress.city", equalTo("Shanghai"));
        assertThat(second).isNotEqualTo(first);
    }

    @Test
    void aCustomerWithNeitherAnAddressInTheOrderNorASavedOneIsToldSoAndTheTokenStaysUsable() {
        String customer = newCustomer();
        String token = newToken(customer);

        placeOrder(customer, token, WITHOUT_ADDRESS).then().statusCode(422)
                .contentType("application/problem+json")
                .body("code", equalTo("shipping-address-missing"));
        assertThat(Orders.value("SELECT count(*) FROM orders WHERE customer = ?", customer)).isEqualTo("0");

        placeOrder(customer, token, order(SHANGHAI)).then().statusCode(201);
    }

    @Test
    void aWrongAddressIsRefusedFieldByFieldBeforeAnythingIsOrdered() {
        String customer = newCustomer();
        String token = newToken(customer);
        String wrong = """
                {"name":"","lines":[],"city":"Line one\\nLine two","postalCode":"<script>","country":"ZZ","phone":"call me"}""";

        JsonPath refusal = placeOrder(customer, token, order(wrong)).then().statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("validation-failed"))
                .body("errors.field", hasItems("shippingAddress.name", "shippingAddress.lines", "shippingAddress.city",
                        "shippingAddress.postalCode", "shippingAddress.country", "shippingAddress.phone"))
                .extract().jsonPath();
        assertThat(refusal.getList("errors.field")).hasSize(6);
        placeOrder(customer, token, order("""
                {"name":"Li Lei","lines":["1 Road"],"city":"Shanghai","country":"cn"}""")).then().statusCode(400)
                .body("errors[0].field", equalTo("shippingAddress.country"));
        // Blank optional fields are absent, as a form leaves them.
        placeOrder(customer, token, order("""
                {"name":"Li Lei","lines":["1 Road"],"city":"Shanghai","region":" ","postalCode":"","phone":"","country":"CN"}"""))
                .then().statusCode(201).body("shippingAddress.phone", nullValue()).body("shippingAddress.postalCode", nullValue());
        assertThat(Orders.value("SELECT count(*) FROM orders WHERE customer = ?", customer)).isEqualTo("1");
    }

    @Test
    void aRetryOfTheTokenWithAnotherAddressIsAnotherOrderAndRefused() {
        String customer = newCustomer();
        String token = newToken(customer);
        placeOrder(customer, token, order(SHANGHAI)).then().statusCode(201);

        placeOrder(customer, token, order(SHANGHAI)).then().statusCode(201).header("Idempotent-Replayed", "true");
        placeOrder(customer, token, order(SHANGHAI.replace("Shanghai", "Hangzhou"))).then().statusCode(422)
                .body("code", equalTo("order-token-reused"));
    }

    @Test
    void theWarehouseIsSentTheOrdersAddress() {
        String customer = newCustomer();
        String id = placeOrder(customer, newToken(customer), order(SHANGHAI)).then().statusCode(201).extract().path("id");
        act(customer, id, "pay").then().statusCode(200);
        act("ops", id, "ship").then().statusCode(200);

        await().atMost(Duration.ofSeconds(10)).until(() -> as("ops").queryParam("orderId", id).get("/sandbox/ledger")
                .jsonPath().getList("shipments").size() == 1);
        String reference = as("ops").queryParam("orderId", id).get("/sandbox/ledger").then().statusCode(200)
                .body("shipments[0].shippingAddress.name", equalTo("Han Meimei"))
                .body("shipments[0].shippingAddress.lines[1]", equalTo("Xuhui District"))
                .body("shipments[0].shippingAddress.phone", equalTo("+86 21 5555 0199"))
                .extract().path("shipments[0].reference");
        // The order shows the warehouse's reference once it has accepted the shipment.
        await().atMost(Duration.ofSeconds(10)).until(() -> "accepted".equals(as(customer).get("/orders/{id}", id).path("shipment.state")));
        as(customer).get("/orders/{id}", id).then().body("shipment.reference", equalTo(reference));
        assertThat(reference).startsWith("shipment_");
    }

    private static String order(String address) {
        return """
                {"currency":"CNY","items":[{"sku":"ABC-1","quantity":1}],"shippingAddress":%s}""".formatted(address);
    }

    /** A customer of this test alone, without a saved address. */
    private static String newCustomer() {
        String customer = "ship-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(customer, "customer");
        Users.forgetAddress(customer);
        return customer;
    }
}
