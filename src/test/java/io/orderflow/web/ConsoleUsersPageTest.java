package io.orderflow.web;

import static io.orderflow.support.Api.as;
import static io.orderflow.support.SignInForm.signIn;
import static io.orderflow.web.WebCheckoutTest.browser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.Orders;
import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;

/**
 * The users page, for admins only: an admin adds a user who then signs in, disables them (asked to confirm first) so that
 * they sign in no more, and gives a user a new password; the same rules as the operator's commands, every form safe to
 * send twice, and a password never shown back. Staff who are not admins, and customers, are refused.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class ConsoleUsersPageTest {

    private static final String PAGE = "/console/users";

    @Test
    void anAdminAddsAUserWhoSignsInThenDisablesThemAndTheySignInNoMore() {
        WebCheckoutTest.Browser admin = admin();
        String name = unique("carol");
        String password = "carol-long-password-1";

        String page = admin.get(PAGE).then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        assertThat(page).contains("<h1>Users</h1>", "<a href=\"/console/users\">Users</a>", "<label for=\"add-password-again\">");
        String added = add(admin, name, "customer", password, password).then().statusCode(303).extract().header("Location");
        assertThat(added).endsWith(PAGE + "?notice=added&user=" + name);
        assertThat(admin.get(added).asString()).contains("role=\"status\" id=\"notice\">User " + name + " added.</p>")
                .contains("<th scope=\"row\">" + name + "</th>").doesNotContain(password);
        CookieFilter carol = new CookieFilter();
        signIn(carol, name, password).then().statusCode(302).header("Location", endsWith("/checkout"));

        String disable = PAGE + "/" + name + "/disable";
        admin.get(PAGE);
        String asked = admin.form().post(disable).then().statusCode(200).extract().asString();
        assertThat(asked).contains("Disable " + name + "?", "name=\"confirmed\" value=\"yes\"");
        assertThat(Orders.value("SELECT disabled_at IS NULL FROM users WHERE name = ?", name)).as("nothing done before the confirmation").isEqualTo("t");
        admin.form().formParam("confirmed", "yes").post(disable).then().statusCode(303).header("Location", endsWith("?notice=disabled&user=" + name));
        // The same form again (a double click, the back button): nothing more happens, and the page says so.
        admin.form().formParam("confirmed", "yes").post(disable).then().statusCode(303)
                .header("Location", endsWith("?notice=alreadyDisabled&user=" + name));

        signIn(new CookieFilter(), name, password).then().statusCode(302).header("Location", containsString("error"));
        WebCheckoutTest.Browser signedIn = new WebCheckoutTest.Browser(carol);
        signedIn.request().get("/checkout/orders").then().statusCode(302).header("Location", endsWith("/login"));
    }

    @Test
    void anAdminGivesAUserANewPasswordAndOnlyTheNewOneSignsIn() {
        WebCheckoutTest.Browser admin = admin();
        String name = unique("dana");
        Users.add(name, "staff");
        String password = "dana-new-long-password";

        admin.get(PAGE);
        admin.form().formParam("user", name).formParam("password", password).formParam("passwordAgain", password).post(PAGE + "/password")
                .then().statusCode(303).header("Location", endsWith("?notice=passwordChanged&user=" + name));

        signIn(new CookieFilter(), name, name).then().statusCode(302).header("Location", containsString("error"));
        signIn(new CookieFilter(), name, password).then().statusCode(302).header("Location", endsWith("/checkout"));
    }

    @Test
    void badInputIsSentBackWithItsMistakeAndWritesNothing() {
        WebCheckoutTest.Browser admin = admin();
        String password = "a long enough password";

        admin.get(PAGE);
        String badName = add(admin, "Eve Smith", "customer", password, password).then().statusCode(400).extract().asString();
        assertThat(badName).contains("id=\"add-error\">The name must be 1 to 64 lower-case letters", "value=\"Eve Smith\"").doesNotContain(password);
        String name = unique("eve");
        String mismatch = add(admin, name, "staff", password, password + "!").then().statusCode(400).extract().asString();
        assertThat(mismatch).contains("The two passwords differ; nothing was changed.", "value=\"" + name + "\"", "<option value=\"staff\" selected>")
                .doesNotContain(password);
        add(admin, name, "customer", "short", "short").then().statusCode(400).body(containsString("The password must have at least 12 characters; nothing was changed."));
        add(admin, name, "root", password, password).then().statusCode(400).body(containsString("The role must be one of those offered; nothing was changed."));
        assertThat(Orders.value("SELECT count(*) FROM users WHERE name IN (?, 'Eve Smith')", name)).isEqualTo("0");

        admin.form().formParam("user", "ops").formParam("password", password).formParam("passwordAgain", "another one entirely")
                .post(PAGE + "/password").then().statusCode(400).body(containsString("id=\"password-error\">The two passwords differ"));
        browser("ops").get("/checkout").then().statusCode(200);
    }

    @Test
    void anAddSentTwiceAddsOneUserAndOneWithoutItsTokenNone() {
        WebCheckoutTest.Browser admin = admin();
        String name = unique("frank");
        String password = "frank-long-password";

        admin.get(PAGE);
        add(admin, name, "staff", password, password).then().statusCode(303).header("Location", endsWith("?notice=added&user=" + name));
        add(admin, name, "staff", password, password).then().statusCode(303).header("Location", endsWith("?notice=taken&user=" + name));
        assertThat(Orders.value("SELECT count(*) || ' ' || min(role) FROM users WHERE name = ?", name)).isEqualTo("1 staff");
        String forged = unique("forged");
        admin.request().formParam("name", forged).formParam("role", "admin").formParam("password", password).formParam("passwordAgain", password)
                .post(PAGE).then().statusCode(403).body(containsString("<a href=\"/console/users\" id=\"back\">"));
        assertThat(Orders.value("SELECT count(*) FROM users WHERE name = ?", forged)).as("a form without the session's token").isEqualTo("0");
        assertThat(admin.get(PAGE + "?notice=taken&user=" + name).asString()).contains("User " + name + " already exists; nothing was changed.");
    }

    @Test
    void anAdminCannotDisableThemselves() {
        String name = unique("root");
        Users.add(name, "admin");
        WebCheckoutTest.Browser admin = browser(name);

        assertThat(admin.get(PAGE).asString()).as("no form to disable oneself").doesNotContain(PAGE + "/" + name + "/disable");
        admin.form().formParam("confirmed", "yes").post(PAGE + "/" + name + "/disable").then().statusCode(303)
                .header("Location", endsWith("?notice=notYourself&user=" + name));
        assertThat(Orders.value("SELECT disabled_at IS NULL FROM users WHERE name = ?", name)).isEqualTo("t");
        assertThat(admin.get(PAGE).asString()).as("still signed in").contains("<h1>Users</h1>");
    }

    @Test
    void staffWhoAreNotAdminsAndCustomersAreRefused() {
        WebCheckoutTest.Browser ops = browser("ops");
        ops.get(PAGE).then().statusCode(403).contentType(containsString("text/html")).body(containsString("Only admins manage the users."));
        ops.get("/checkout");
        String name = unique("mallory");
        add(ops, name, "admin", "mallory-long-password", "mallory-long-password").then().statusCode(403);
        assertThat(Orders.value("SELECT count(*) FROM users WHERE name = ?", name)).isEqualTo("0");
        assertThat(ops.get("/console/health").asString()).as("the link shows to admins only").doesNotContain("href=\"/console/users\"");

        browser("alice").get(PAGE).then().statusCode(403);
    }

    @Test
    void anAdminIsStaffAndThePageSpeaksChinese() {
        String name = unique("admin");
        Users.add(name, "admin");
        WebCheckoutTest.Browser admin = browser(name);
        admin.get("/console/health").then().statusCode(200);
        as(name).get("/outbox/dead-letters").then().statusCode(200);
        Response page = admin.request().header("Accept-Language", "zh-CN").get(PAGE);
        assertThat(page.asString()).contains("<html lang=\"zh-CN\">", "<h1>用户</h1>", "添加用户");
    }

    /** A new admin, signed in (its password is its name). */
    private static WebCheckoutTest.Browser admin() {
        String name = unique("admin");
        Users.add(name, "admin");
        return browser(name);
    }

    private static Response add(WebCheckoutTest.Browser admin, String name, String role, String password, String again) {
        return admin.form().formParam("name", name).formParam("role", role).formParam("password", password).formParam("passwordAgain", again)
                .post(PAGE);
    }

    private static String unique(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
