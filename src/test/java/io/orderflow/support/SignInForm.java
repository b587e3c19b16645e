package io.orderflow.support;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** The web sign-in form as a browser sends it: the page read first, its CSRF token in the form's address. */
public final class SignInForm {

    public static final Pattern ACTION = Pattern.compile("action=\"(/j_security_check\\?csrf-token=[^\"]+)\"");

    private SignInForm() {
    }

    /** Signs in (or fails to) with the cookies of one browser; the answer is not followed. */
    public static Response signIn(CookieFilter cookies, String user, String password) {
        return signIn(given(), cookies, user, password);
    }

    /** The same, with requests built on {@code base} (e.g. a forwarded client address). */
    public static Response signIn(RequestSpecification base, CookieFilter cookies, String user, String password) {
        return given().spec(base).filter(cookies).redirects().follow(false)
                .formParam("j_username", user).formParam("j_password", password)
                .post(action(base, cookies));
    }

    /** The address the sign-in form posts to, with the token of the csrf-token cookie its page sets. */
    public static String action(RequestSpecification base, CookieFilter cookies) {
        Matcher action = ACTION.matcher(given().spec(base).filter(cookies).get("/login").asString());
        assertThat(action.find()).as("the sign-in form").isTrue();
        return action.group(1);
    }
}
