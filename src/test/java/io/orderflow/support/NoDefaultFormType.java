package io.orderflow.support;

import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * RestAssured gives a POST without body or type the type of a form, as no API client does (curl,
 * java.net.http, fetch send none): the API refuses form types as a browser's cross-site form
 * (web.CrossSiteApiTest). Such a request goes out as JSON instead; a form with fields, and any type a
 * test sets with a body, go out as they are.
 */
public final class NoDefaultFormType implements Filter {

    private static final String FORM = "application/x-www-form-urlencoded";

    /** Applies to every RestAssured request of this JVM. */
    public static synchronized void install() {
        if (RestAssured.filters().stream().noneMatch(NoDefaultFormType.class::isInstance)) {
            RestAssured.filters(new NoDefaultFormType());
        }
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification response, FilterContext context) {
        String type = request.getContentType();
        if (type != null && type.startsWith(FORM) && request.getBody() == null && request.getFormParams().isEmpty()) {
            request.contentType("application/json");
        }
        return context.next(request, response);
    }
}
