package io.orderflow.user;

import static io.orderflow.support.Api.act;
import static io.orderflow.support.Api.as;
import static io.orderflow.support.Api.newOrder;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.elytron.security.common.BcryptUtil;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;

/** Users from the users table sign in with HTTP Basic and the login form, with the roles stored there. */
@QuarkusTest
@WithTestResource(TestServers.class)
class SignInTest {

    @Inject
    AddUserCommand addUser;

    @Test
    void theDemoUsersSignInWithTheirRoles() {
        String id = newOrder("alice");
        act("alice", id, "pay").then().statusCode(200);
        act("bob", id, "pay").then().statusCode(404);
        act("alice", id, "ship").then().statusCode(403);
        act("ops", id, "ship").then().statusCode(200).body("status", equalTo("shipped"));
    }

    @Test
    void aWrongPasswordOrAnUnknownUserIsRefused() {
        given().auth().preemptive().basic("alice", "bob").get("/orders")
                .then().statusCode(401).header("WWW-Authenticate", "Basic realm=\"orders\"");
        given().auth().preemptive().basic("mallory", "mallory").get("/orders").then().statusCode(401);
        // Passwords of any shape are only wrong, for known and unknown names alike.
        for (String user : List.of("alice", "mallory")) {
            for (String password : List.of("", " ", "é".repeat(100), "x".repeat(1000))) {
                given().auth().preemptive().basic(user, password).get("/orders").then().statusCode(401);
            }
        }
        // A name no user can have never reaches the database (a NUL byte would fail its query).
        given().auth().preemptive().basic("al\u0000ice", "alice").get("/orders").then().statusCode(401);
        given().auth().preemptive().basic("Alice", "alice").get("/orders").then().statusCode(401);
        signIn(new CookieFilter(), "alice", "Alice").then().statusCode(302).header("Location", containsString("/login?error=true"));
    }

    /**
     * An unknown name is not told apart by time: it costs what a known user's wrong password costs.
     * The two kinds are interleaved so that noise on the machine hits both alike.
     */
    @Test
    void anUnknownNameTakesAsLongAsAKnownOneWithAWrongPassword() {
        for (int i = 0; i < 10; i++) {
            timeOfWrongPassword("alice");
            timeOfWrongPassword("nosuch");
        }
        long[] known = new long[20];
        long[] unknown = new long[20];
        for (int i = 0; i < 20; i++) {
            known[i] = timeOfWrongPassword("alice");
            unknown[i] = timeOfWrongPassword("nosuch");
        }
        double knownMedian = median(known);
        double unknownMedian = median(unknown);
        assertThat(Math.abs(knownMedian - unknownMedian) / Math.max(knownMedian, unknownMedian))
                .as("medians: alice:wrong %.1f ms, nosuch:wrong %.1f ms", knownMedian / 1e6, unknownMedian / 1e6)
                .isLessThan(0.3);
    }

    /**
     * An account hashed at a higher cost than the configured one (a cost lowered since, an import) would answer
     * a wrong password slower than an unknown name does: its next right sign-in hashes it again at the configured cost.
     */
    @Test
    void anAccountHashedAtAHigherCostIsHashedAgainAtTheConfiguredOne() throws Exception {
        String name = "dear-" + UUID.randomUUID().toString().substring(0, 8);
        try (Connection db = TestServers.connect();
                PreparedStatement insert = db.prepareStatement("INSERT INTO users (name, password, role) VALUES (?, ?, 'customer')")) {
            insert.setString(1, name);
            insert.setString(2, BcryptUtil.bcryptHash(name, 12));
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
        given().auth().preemptive().basic(name, "wrong").get("/orders").then().statusCode(401);
        assertThat(Orders.value("SELECT password FROM users WHERE name = ?", name)).as("a wrong password changes nothing").startsWith("$2a$12$");

        given().auth().preemptive().basic(name, name).get("/orders").then().statusCode(200);

        String stored = Orders.value("SELECT password FROM users WHERE name = ?", name);
        assertThat(stored).startsWith("$2a$10$");
        assertThat(BcryptUtil.matches(name, stored)).isTrue();
        given().auth().preemptive().basic(name, "wrong").get("/orders").then().statusCode(401);
    }

    /** A disabled user's right password is checked as an unknown name is: its time tells neither the user nor the password. */
    @Test
    void aDisabledUsersRightPasswordTakesAsLongAsAnUnknownName() {
        String name = "dora-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        Orders.execute("UPDATE users SET disabled_at = now() WHERE name = '" + name + "'");
        for (int i = 0; i < 10; i++) {
            timeOfRefused(name, name);
            timeOfWrongPassword("nosuch");
        }
        long[] disabled = new long[20];
        long[] unknown = new long[20];
        for (int i = 0; i < 20; i++) {
            disabled[i] = timeOfRefused(name, name);
            unknown[i] = timeOfWrongPassword("nosuch");
        }
        double disabledMedian = median(disabled);
        double unknownMedian = median(unknown);
        // The disabled user's own hash has bcrypt's lowest cost: checked against it, the refusal would take a tenth as long.
        assertThat(Math.abs(disabledMedian - unknownMedian) / Math.max(disabledMedian, unknownMedian))
                .as("medians: %s:%s (disabled) %.1f ms, nosuch:wrong %.1f ms", name, name, disabledMedian / 1e6, unknownMedian / 1e6)
                .isLessThan(0.3);
    }

    private static long timeOfWrongPassword(String user) {
        return timeOfRefused(user, "wrong");
    }

    private static long timeOfRefused(String user, String password) {
        long start = System.nanoTime();
        given().auth().preemptive().basic(user, password).get("/orders").then().statusCode(401);
        return System.nanoTime() - start;
    }

    private static double median(long[] times) {
        long[] sorted = times.clone();
        Arrays.sort(sorted);
        return (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }

    @Test
    void aVerifiedPasswordIsNotHashedAgainForAWhileAndAWrongOneNeverCounts() throws Exception {
        String name = "vera-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        given().auth().preemptive().basic(name, "wrong").get("/orders").then().statusCode(401);
        given().auth().preemptive().basic(name, name).get("/orders").then().statusCode(200);

        // The row changes behind the service's back: the password it verified is taken as verified for
        // orders.users.verified-for, and only that one; a wrong password still goes to the user store.
        try (Connection db = TestServers.connect(); PreparedStatement change = db.prepareStatement("UPDATE users SET password = ? WHERE name = ?")) {
            change.setString(1, BcryptUtil.bcryptHash("a new password", 4));
            change.setString(2, name);
            assertThat(change.executeUpdate()).isEqualTo(1);
        }
        given().auth().preemptive().basic(name, name).get("/orders").then().statusCode(200);
        given().auth().preemptive().basic(name, "wrong").get("/orders").then().statusCode(401);
        given().auth().preemptive().basic(name, "a new password").get("/orders").then().statusCode(200);
    }

    @Test
    void passwordsAreStoredAsBcryptHashes() {
        for (String user : List.of("alice", "bob", "ops")) {
            String stored = Orders.value("SELECT password FROM users WHERE name = ?", user);
            assertThat(stored).startsWith("$2a$04$").hasSize(60);
            assertThat(BcryptUtil.matches(user, stored)).isTrue();
        }
        assertThat(Orders.value("SELECT string_agg(name || ':' || role, ',' ORDER BY name) FROM users WHERE name IN ('alice', 'bob', 'ops')"))
                .isEqualTo("alice:customer,bob:customer,ops:staff");
    }

    @Test
    void aUserAddedByTheCommandSignsInWithBasicAndTheForm() {
        String name = "carol-" + UUID.randomUUID().toString().substring(0, 8);
        String password = "carol's long password";
        CommandRun added = run(password + "\n", name, "customer");
        assertThat(added.exitCode()).as(added.err()).isEqualTo(AddUserCommand.ADDED);
        assertThat(added.out()).contains("User " + name + " added with role customer.");
        assertThat(Orders.value("SELECT password FROM users WHERE name = ?", name)).startsWith("$2a$10$").doesNotContain(password);

        given().auth().preemptive().basic(name, password).get("/orders").then().statusCode(200);
        given().auth().preemptive().basic(name, name).get("/orders").then().statusCode(401);

        CookieFilter cookies = new CookieFilter();
        signIn(cookies, name, password).then().statusCode(302).header("Location", endsWith("/checkout"));
        given().filter(cookies).redirects().follow(false).get("/checkout").then().statusCode(200).body(containsString("name=\"token\""));
    }

    @Test
    void theCommandRefusesATakenNameAndBadInput() {
        String name = "dave-" + UUID.randomUUID().toString().substring(0, 8);
        assertThat(run("dave's first password\n", name, "staff").exitCode()).isEqualTo(AddUserCommand.ADDED);
        String stored = Orders.value("SELECT password FROM users WHERE name = ?", name);

        CommandRun taken = run("dave's other password\n", name, "customer");
        assertThat(taken.exitCode()).isEqualTo(AddUserCommand.NAME_TAKEN);
        assertThat(taken.err()).contains("User " + name + " already exists; nothing changed.");
        assertThat(Orders.value("SELECT password || ' ' || role FROM users WHERE name = ?", name)).isEqualTo(stored + " staff");

        assertRefused(run("a long enough password\n", "Dave", "customer"), "the name must be 1 to 64 lower-case letters");
        assertRefused(run("a long enough password\n", "{eve}", "customer"), "the name must be 1 to 64 lower-case letters");
        assertRefused(run("a long enough password\n", "e".repeat(65), "customer"), "the name must be 1 to 64 lower-case letters");
        assertRefused(run("a long enough password\n", "eve", "root"), "the role must be customer, staff, admin or metrics");
        assertRefused(run("short\n", "eve", "customer"), "the password must have at least 12 characters");
        assertRefused(run("é".repeat(37) + "\n", "eve", "customer"), "the password must fit in 72 bytes of UTF-8");
        assertRefused(run("", "eve", "customer"), "no password on stdin");
        assertRefused(run("a long enough password\n", "eve"), AddUserCommand.USAGE);
        assertThat(Orders.value("SELECT count(*) FROM users WHERE name IN ('eve', 'dave', '{eve}')")).isEqualTo("0");
    }

    @Test
    void usersAddedByTheTestHelperSignIn() {
        String name = "frank-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "staff");
        as(name).get("/outbox/dead-letters").then().statusCode(200);
    }

    private static void assertRefused(CommandRun run, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(AddUserCommand.INVALID);
        assertThat(run.err()).contains(message);
    }

    private CommandRun run(String stdin, String... args) {
        return CommandRun.of(addUser, stdin, args);
    }
}
