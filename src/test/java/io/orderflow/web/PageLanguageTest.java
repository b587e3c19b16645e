package io.orderflow.web;

import static io.orderflow.support.SignInForm.signIn;
import static io.orderflow.web.WebCheckoutTest.shownPrice;
import static io.orderflow.web.WebCheckoutTest.token;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.orderflow.support.TestServers;
import io.orderflow.support.Users;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.filter.cookie.CookieFilter;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/**
 * The pages speak English and Simplified Chinese: the browser's language chooses, the switch overrides it and is
 * kept, and times are shown in the browser's time zone once it has told it.
 */
@QuarkusTest
@WithTestResource(TestServers.class)
class PageLanguageTest {

    @Test
    void aChineseBrowserGetsTheChinesePagesAndAnEnglishOneTheEnglishPages() {
        given().header("Accept-Language", "zh-CN,zh;q=0.9,en;q=0.8").get("/login").then().statusCode(200)
                .body(containsString("<html lang=\"zh-CN\">"))
                .body(containsString("<h1>登录</h1>"))
                .body(containsString("<label for=\"user\">用户名</label>"))
                .body(containsString("lang=\"en\" hreflang=\"en\""))
                .body(containsString(">English</a>"));
        given().header("Accept-Language", "en-GB,en;q=0.9").get("/login").then().statusCode(200)
                .body(containsString("<html lang=\"en\">"))
                .body(containsString("<h1>Sign in</h1>"))
                .body(containsString(">中文</a>"));
        given().header("Accept-Language", "de;q=oops").get("/login").then().statusCode(200).body(containsString("<h1>Sign in</h1>"));
    }

    @Test
    void theSwitchIsKeptInACookieAndWinsOverTheBrowsersLanguage() {
        CookieFilter cookies = new CookieFilter();
        RequestSpecification english = given().filter(cookies).redirects().follow(false).header("Accept-Language", "en");
        Response switched = english.queryParam("back", "/login?signed-out=true").get("/language/zh-CN");
        switched.then().statusCode(303).header("Location", matchesPattern(".*/login\\?signed-out=true"));
        assertThat(switched.detailedCookie("lang").getValue()).isEqualTo("zh-CN");
        assertThat(switched.detailedCookie("lang").getMaxAge()).isEqualTo(365L * 24 * 60 * 60);

        given().filter(cookies).header("Accept-Language", "en").get("/login?signed-out=true").then().statusCode(200)
                .body(containsString("您已退出登录"));
        given().filter(cookies).redirects().follow(false).get("/language/en?back=/login").then().statusCode(303);
        given().filter(cookies).header("Accept-Language", "zh-CN").get("/login").then().body(containsString("<h1>Sign in</h1>"));
    }

    @Test
    void theSwitchReturnsOnlyToThisSite() {
        for (String away : List.of("//evil.example/", "https://evil.example/", "/\\evil.example", "/%5Cevil.example", "javascript:alert(1)",
                "", "/%zz")) {
            Response answer = given().redirects().follow(false).queryParam("back", away).get("/language/zh-CN");
            assertThat(answer.statusCode()).as(away).isEqualTo(303);
            assertThat(answer.header("Location")).as(away).matches("https?://[^/]+/(checkout|%5Cevil\\.example)");
        }
        Response unknown = given().redirects().follow(false).get("/language/fr?back=/login");
        unknown.then().statusCode(303);
        assertThat(unknown.detailedCookie("lang")).isNull();
    }

    @Test
    void aChineseCustomerOrdersToAnAddressAndReadsTheOrderInChineseInTheirTimeZone() {
        String customer = "zh-" + UUID.randomUUID().toString().substring(0, 8);
        Users.add(customer, "customer");
        CookieFilter cookies = new CookieFilter();
        signIn(cookies, customer, customer).then().statusCode(302);
        WebCheckoutTest.Browser browser = new WebCheckoutTest.Browser(cookies);
        given().filter(cookies).redirects().follow(false).get("/language/zh-CN").then().statusCode(303);

        Response form = browser.get("/checkout");
        form.then().statusCode(200)
                .body(containsString("<h1>结账</h1>"))
                .body(containsString("<legend>收货地址</legend>"))
                .body(containsString("<option value=\"CN\" selected>中国</option>"))
                .body(containsString("<button type=\"submit\" id=\"place-order\">提交订单</button>"));

        Map<String, String> nameless = new HashMap<>(WebCheckoutTest.ADDRESS);
        nameless.put("addressName", "");
        Response refused = browser.form().formParam("token", token(form)).formParam("sku", "ABC-1").formParam("quantity", "1")
                .formParam("unitPrice", shownPrice(form, "ABC-1")).formParam("currency", "CNY")
                .formParams(nameless).post("/checkout");
        refused.then().statusCode(400)
                .body(containsString("<li><a href=\"#address-name\">收货人姓名：必填。</a></li>"))
                .body(containsString("<p class=\"error\" id=\"error-address-name\">必填。</p>"));

        String page = browser.form().formParam("token", token(form)).formParam("sku", "ABC-1").formParam("quantity", "2")
                .formParam("unitPrice", shownPrice(form, "ABC-1")).formParam("currency", "CNY")
                .formParams(WebCheckoutTest.ADDRESS).post("/checkout").then().statusCode(303).extract().header("Location");

        given().filter(cookies).cookie("tz", "Asia/Shanghai").get(page).then().statusCode(200)
                .body(containsString("<span class=\"status\" id=\"status\">待付款</span>"))
                .body(containsString("<span id=\"total\">¥25.00</span>"))
                .body(containsString("<td>Notebook</td><td class=\"amount\">2</td>"))
                .body(containsString("中国<br>+86 21 5555 0199"))
                .body(matchesPattern("(?s).*<li>创建于 <time datetime=\"[^\"]+\">\\d{4}年\\d{1,2}月\\d{1,2}日 \\d{2}:\\d{2} GMT\\+8</time></li>.*"))
                .body(containsString(">付款</button>"))
                .body(not(containsString("Pay by")));
        given().filter(cookies).cookie("tz", "Not/AZone").get(page).then().statusCode(200)
                .body(matchesPattern("(?s).*<li>创建于 <time datetime=\"[^\"]+\">[^<]+ UTC</time></li>.*"));
    }
}
