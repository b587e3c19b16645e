package io.orderflow.shared.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.client.ApiClient;
import io.orderflow.client.ApiException;
import io.orderflow.client.api.OrdersApi;
import io.orderflow.client.api.ProductsApi;
import io.orderflow.client.model.IssuedToken;
import io.orderflow.client.model.Item1;
import io.orderflow.client.model.OrderEvent;
import io.orderflow.client.model.OrderRequest;
import io.orderflow.client.model.OrderStatus;
import io.orderflow.client.model.OrderView;
import io.orderflow.client.model.PayRequest;
import io.orderflow.client.model.ProductView;
import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

/**
 * The typed client that the build generates from src/test/openapi/orders-api.json (which
 * OpenApiDocumentTest holds equal to /q/openapi) works against the running service.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class GeneratedClientTest {

    private static final OrderRequest TWO_NOTEBOOKS = new OrderRequest().currency("CNY").items(List.of(new Item1().sku("ABC-1").quantity(2)));

    @Test
    void aCustomerPlacesPaysAndCancelsOrders() throws ApiException {
        OrdersApi alice = new OrdersApi(signedInAs("alice", "alice"));
        ProductView notebook = new ProductsApi(signedInAs("alice", "alice")).getProduct("ABC-1");

        IssuedToken token = alice.issueOrderToken(null);
        assertThat(token.getToken()).isNotBlank();
        assertThat(token.getTtlSeconds()).isPositive();
        OrderView placed = alice.createOrder(token.getToken(), TWO_NOTEBOOKS, null);
        assertThat(placed.getStatus()).isEqualTo(OrderStatus.CREATED);
        assertThat(new BigDecimal(placed.getTotalAmount()))
                .isEqualByComparingTo(new BigDecimal(notebook.getPrice()).multiply(BigDecimal.valueOf(2)));
        assertThat(placed.getItems()).singleElement().satisfies(item -> {
            assertThat(item.getSku()).isEqualTo("ABC-1");
            assertThat(item.getQuantity()).isEqualTo(2);
        });
        assertThat(placed.getAllowedActions()).containsExactly(OrderEvent.PAY, OrderEvent.CANCEL);

        OrderView paid = alice.payOrder(placed.getId().toString(), UUID.randomUUID().toString(),
                new PayRequest().paymentMethod("pm_card_visa"));
        assertThat(paid.getStatus()).isEqualTo(OrderStatus.PAID);
        assertThat(paid.getVersion()).isEqualTo(placed.getVersion() + 1);
        assertThat(paid.getTotalAmount()).isEqualTo(placed.getTotalAmount());

        OrderView other = alice.createOrder(alice.issueOrderToken(null).getToken(), TWO_NOTEBOOKS, null);
        OrderView cancelled = alice.cancelOrder(other.getId().toString(), null);
        assertThat(cancelled.getStatus()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(cancelled.getAllowedActions()).isEmpty();
        assertThat(alice.getOrder(other.getId().toString()).getHistory()).extracting(step -> step.getTo())
                .containsExactly(OrderStatus.CANCELLED);
    }

    @Test
    void staffShipWhatACustomerMayNot() throws ApiException {
        OrdersApi alice = new OrdersApi(signedInAs("alice", "alice"));
        OrderView placed = alice.createOrder(alice.issueOrderToken(null).getToken(), TWO_NOTEBOOKS, null);
        String id = placed.getId().toString();
        alice.payOrder(id, UUID.randomUUID().toString(), null);

        ApiException refused = catchThrowableOfType(ApiException.class, () -> alice.shipOrder(id, null));
        assertThat(refused.getCode()).isEqualTo(403);
        assertThat(refused.getResponseBody()).contains("\"code\":\"forbidden\"");

        OrderView shipped = new OrdersApi(signedInAs("ops", "ops")).shipOrder(id, null);
        assertThat(shipped.getStatus()).isEqualTo(OrderStatus.SHIPPED);
    }

    @Test
    void wrongCredentialsAre401() {
        OrdersApi stranger = new OrdersApi(signedInAs("alice", "wrong"));
        ApiException refused = catchThrowableOfType(ApiException.class, () -> stranger.issueOrderToken(null));
        assertThat(refused.getCode()).isEqualTo(401);
        assertThat(refused.getResponseBody()).contains("\"code\":\"unauthorized\"");
    }

    /**
     * The generated native client has no HTTP Basic support of its own: every request gets the header.
     * HTTP/1.1, since the JDK client's default upgrade to HTTP/2 (h2c) on a request with a body is not
     * served yet: the service answers it 500.
     */
    private static ApiClient signedInAs(String user, String password) {
        ApiClient client = new ApiClient();
        client.setHttpClientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1));
        client.updateBaseUri(RestAssured.baseURI + ":" + RestAssured.port);
        String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        client.setRequestInterceptor(request -> request.header("Authorization", "Basic " + credentials));
        return client;
    }
}
