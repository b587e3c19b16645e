package io.orderflow.user;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import io.orderflow.shared.security.DemoKeys;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * A demo on the internet gives its staff user a password of its own (generated, or the environment's),
 * applied at start: the public ops/ops of dev and test no longer signs in, the demo's password does.
 */
@QuarkusTest
@TestProfile(DemoStaffPasswordTest.OwnStaffPassword.class)
@WithTestResource(TestServers.class)
class DemoStaffPasswordTest {

    static final String PASSWORD = "the demo's own staff password";

    public static class OwnStaffPassword implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(DemoKeys.STAFF_PASSWORD, PASSWORD);
        }
    }

    @Test
    void thePublicStaffPasswordNoLongerSignsInTheDemosOwnDoes() {
        given().auth().preemptive().basic("ops", "ops").get("/orders").then().statusCode(401);
        given().auth().preemptive().basic("ops", PASSWORD).get("/orders").then().statusCode(200);

        String stored = Orders.value("SELECT password FROM users WHERE name = 'ops'");
        assertThat(BcryptUtil.matches(PASSWORD, stored)).isTrue();
        assertThat(BcryptUtil.matches("ops", stored)).isFalse();
        assertThat(Orders.value("SELECT role FROM users WHERE name = 'ops'")).isEqualTo("staff");
    }

    /** The other test classes share the schema, and sign in as ops/ops, as dev and test do. */
    @AfterAll
    static void giveOpsItsPublicPasswordBack() throws SQLException {
        try (Connection db = TestServers.connect(); PreparedStatement restore = db.prepareStatement("UPDATE users SET password = ? WHERE name = 'ops'")) {
            restore.setString(1, BcryptUtil.bcryptHash("ops", 4));
            assertThat(restore.executeUpdate()).isEqualTo(1);
        }
    }
}
