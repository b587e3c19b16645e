package io.orderflow.web;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.restassured.response.Response;

/** The attributes of a cookie an answer sets, read from its Set-Cookie header: lower-case names to values ("" for flags). */
final class SetCookies {

    private SetCookies() {
    }

    /** The attributes of the named cookie's Set-Cookie, with its value under "=" ; null when the answer sets no such cookie. */
    static Map<String, String> of(Response answer, String name) {
        for (String header : answer.headers().getValues("Set-Cookie")) {
            String[] parts = header.split(";");
            if (!parts[0].trim().startsWith(name + "=")) {
                continue;
            }
            Map<String, String> attributes = new TreeMap<>();
            attributes.put("=", parts[0].trim().substring(name.length() + 1));
            for (int i = 1; i < parts.length; i++) {
                String[] attribute = parts[i].trim().split("=", 2);
                attributes.put(attribute[0].toLowerCase(Locale.ROOT), attribute.length > 1 ? attribute[1] : "");
            }
            return attributes;
        }
        return null;
    }
}
