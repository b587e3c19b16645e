package io.orderflow.user;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.SignInForm.signIn;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.orderflow.support.BearerTokens;
import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * The operator's commands beside add-user, run in the test's app as the packaged jar runs them: list-users,
 * disable-user (the user is refused by every way of signing in, and their session ends at its next request) and
 * reset-password (the old password is refused, the new one signs in).
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class UserCommandsTest {

    @Inject
    ListUsersCommand listUsers;

    @Inject
    DisableUserCommand disableUser;

    @Inject
    ResetPasswordCommand resetPassword;

    @Test
    void aDisabledUserIsRefusedByBasicByTheFormByTheirSessionAndByTheirBearerToken() {
        String name = newUser();
        // Signed in every way first: a Basic password verified (and so remembered), a session of the pages, a bearer token.
        as(name).get("/orders").then().statusCode(200);
        CookieFilter browser = new CookieFilter();
        signIn(browser, name, name).then().statusCode(302).header("Location", endsWith("/checkout"));
        given().filter(browser).redirects().follow(false).get("/checkout").then().statusCode(200);
        String token = BearerTokens.sign(BearerTokens.claims(name, "customer"), BearerTokens.DEV_KEY);
        given().auth().oauth2(token).get("/orders").then().statusCode(200);

        CommandRun disabled = CommandRun.of(disableUser, "", name);
        assertThat(disabled.exitCode()).as(disabled.err()).isEqualTo(UserCommand.DONE);
        assertThat(disabled.out()).contains("User " + name + " disabled.");

        // The right password is answered as a wrong one is.
        Response wrong = given().auth().preemptive().basic(name, "a wrong password").get("/orders");
        Response right = given().auth().preemptive().basic(name, name).get("/orders");
        for (Response answer : new Response[] { wrong, right }) {
            answer.then().statusCode(401).header("WWW-Authenticate", "Basic realm=\"orders\"").body("code", equalTo("unauthorized"));
        }
        assertThat(right.asString()).isEqualTo(wrong.asString());
        signIn(new CookieFilter(), name, name).then().statusCode(302).header("Location", containsString("/login?error=true"));
        // The session ends at its next request: its pages ask for a sign-in, its forms do nothing.
        given().filter(browser).redirects().follow(false).get("/checkout").then().statusCode(302).header("Location", endsWith("/login"));
        given().auth().oauth2(token).get("/orders").then().statusCode(401);
    }

    /**
     * disable-user is run by the operator in a process of its own, so an instance learns of it from the database: the
     * session and the bearer token are refused at their next request. A Basic password the instance verified lately
     * is taken for up to orders.users.verified-for more there, as a changed password is (SignInTest).
     */
    @Test
    void aUserDisabledByAnotherProcessIsRefusedAtTheNextRequestOfTheirSessionAndToken() {
        String name = newUser();
        CookieFilter browser = new CookieFilter();
        signIn(browser, name, name).then().statusCode(302);
        given().filter(browser).redirects().follow(false).get("/checkout").then().statusCode(200);
        String token = BearerTokens.sign(BearerTokens.claims(name, "customer"), BearerTokens.DEV_KEY);
        given().auth().oauth2(token).get("/orders").then().statusCode(200);

        Orders.execute("UPDATE users SET disabled_at = now() WHERE name = '" + name + "'");

        given().filter(browser).redirects().follow(false).get("/checkout/orders").then().statusCode(302).header("Location", endsWith("/login"));
        given().auth().oauth2(token).get("/orders").then().statusCode(401)
                .header("WWW-Authenticate", containsString("invalid_token")).body("detail", containsString("disabled"));
    }

    @Test
    void disablingTellsWhatItDid() {
        String name = newUser();
        assertThat(CommandRun.of(disableUser, "", name).exitCode()).isEqualTo(UserCommand.DONE);
        String disabledAt = Orders.value("SELECT disabled_at FROM users WHERE name = ?", name);

        CommandRun again = CommandRun.of(disableUser, "", name);
        assertThat(again.exitCode()).as("a script may run it again").isEqualTo(UserCommand.DONE);
        assertThat(again.out()).contains("User " + name + " was disabled already; nothing changed.");
        assertThat(Orders.value("SELECT disabled_at FROM users WHERE name = ?", name)).isEqualTo(disabledAt);

        CommandRun nobody = CommandRun.of(disableUser, "", "nobody-" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(nobody.exitCode()).isEqualTo(UserCommand.NO_SUCH_USER);
        assertThat(nobody.err()).contains("There is no user nobody-");

        // Ops is no name a user can have, and not ops: refused, and ops signs in as before.
        assertThat(CommandRun.of(disableUser, "", "Ops").exitCode()).isEqualTo(UserCommand.INVALID);
        given().auth().preemptive().basic("ops", "ops").get("/orders").then().statusCode(200);
    }

    @Test
    void listUsersShowsEveryUserWithRoleAndWhetherDisabledButNoPassword() {
        String name = newUser();
        CommandRun.of(disableUser, "", name);

        CommandRun listed = CommandRun.of(listUsers, "");
        assertThat(listed.exitCode()).as(listed.err()).isEqualTo(UserCommand.DONE);
        assertThat(listed.out().lines().findFirst()).hasValueSatisfying(header -> assertThat(header).startsWith("NAME").contains("ROLE", "DISABLED"));
        assertThat(listed.out().lines().filter(line -> line.startsWith("alice ")))
                .singleElement().satisfies(line -> assertThat(line).contains(" customer ").endsWith(" -"));
        assertThat(listed.out().lines().filter(line -> line.startsWith("ops ")))
                .singleElement().satisfies(line -> assertThat(line).contains(" staff ").endsWith(" -"));
        assertThat(listed.out().lines().filter(line -> line.startsWith(name + " ")))
                .singleElement().satisfies(line -> assertThat(line).contains(" customer ").doesNotEndWith(" -"));
        assertThat(listed.out()).doesNotContain("$2a$");
    }

    @Test
    void aResetPasswordSignsInAndTheOldOneNoMore() {
        String name = newUser();
        as(name).get("/orders").then().statusCode(200);
        String password = "a new and long password";

        CommandRun reset = CommandRun.of(resetPassword, password + "\n", name);
        assertThat(reset.exitCode()).as(reset.err()).isEqualTo(UserCommand.DONE);
        assertThat(reset.out()).contains("Password of " + name + " changed.");
        assertThat(Orders.value("SELECT password FROM users WHERE name = ?", name)).startsWith("$2a$10$").doesNotContain(password);

        // The old one, though verified a moment ago.
        given().auth().preemptive().basic(name, name).get("/orders").then().statusCode(401);
        given().auth().preemptive().basic(name, password).get("/orders").then().statusCode(200);
        signIn(new CookieFilter(), name, password).then().statusCode(302).header("Location", endsWith("/checkout"));
    }

    @Test
    void resetPasswordRefusesWhatAddUserRefusesAndChangesNothing() {
        String name = newUser();
        String stored = Orders.value("SELECT password FROM users WHERE name = ?", name);

        assertRefused(CommandRun.of(resetPassword, "short\n", name), "the password must have at least 12 characters");
        assertRefused(CommandRun.of(resetPassword, "é".repeat(37) + "\n", name), "the password must fit in 72 bytes of UTF-8");
        assertRefused(CommandRun.of(resetPassword, "", name), "no password on stdin");
        assertRefused(CommandRun.of(resetPassword, "a long enough password\n", "Carla"), "the name must be 1 to 64 lower-case letters");
        assertThat(Orders.value("SELECT password FROM users WHERE name = ?", name)).isEqualTo(stored);

        CommandRun nobody = CommandRun.of(resetPassword, "a long enough password\n", "nobody-" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(nobody.exitCode()).isEqualTo(UserCommand.NO_SUCH_USER);
        assertThat(nobody.err()).contains("There is no user nobody-");
    }

    @Test
    void aDisabledUserStaysDisabledWithANewPassword() {
        String name = newUser();
        CommandRun.of(disableUser, "", name);
        assertThat(CommandRun.of(resetPassword, "a new and long password\n", name).exitCode()).isEqualTo(UserCommand.DONE);
        given().auth().preemptive().basic(name, "a new and long password").get("/orders").then().statusCode(401);
    }

    private static void assertRefused(CommandRun run, String message) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(UserCommand.INVALID);
        assertThat(run.err()).contains(message);
    }

    /** A customer of this test alone, whose password is their name. */
    private static String newUser() {
        String name = "carla-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(name, "customer");
        return name;
    }
}
