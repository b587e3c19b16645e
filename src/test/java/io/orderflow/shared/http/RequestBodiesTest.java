package io.orderflow.shared.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.orderflow.support.TestServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** Bodies that cannot be read as their type says are refused with a problem detail before anything parses them. */
@QuarkusTest
@WithTestResource(TestServers.class)
class RequestBodiesTest {

    private static final String FORM = "application/x-www-form-urlencoded";

    /** A bad escape in a value fails Netty's decoder; in a name without '=' it fails the endpoint's form parser; an empty name fails Netty. */
    @ParameterizedTest
    @ValueSource(strings = { "token=x&quantity=%zz", "%zz", "token=x&%e", "=" })
    void aFormThatIsNotUrlEncodedIs400(String body) {
        given().redirects().follow(false).contentType(FORM).body(body).post("/checkout")
                .then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("code", equalTo("malformed-body"))
                .body(not(containsString("Exception")));
    }

    @ParameterizedTest
    @ValueSource(strings = { "text/plain", "application/json" })
    void aSignInThatIsNoFormIs415(String contentType) {
        given().redirects().follow(false).contentType(contentType).body("j_username=alice&j_password=alice").post("/j_security_check")
                .then()
                .statusCode(415)
                .contentType("application/problem+json")
                .body("code", equalTo("unsupported-media-type"));
    }
}
