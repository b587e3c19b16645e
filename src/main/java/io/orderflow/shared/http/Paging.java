package io.orderflow.shared.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Function;

/**
 * The query parameters of a paged list: {@code limit} (1 to 100, default 20) and {@code after}, the
 * opaque {@code next} cursor of the previous page, which carries the position of that page's last item.
 */
public final class Paging {

    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    private Paging() {
    }

    /** The page size asked for; anything but a whole number from 1 to 100 is a 400. */
    public static int limit(String limit) {
        return (int) QueryParameters.wholeNumber("limit", limit, 1, MAX_LIMIT, DEFAULT_LIMIT);
    }

    /**
     * The position a cursor carries, read by {@code position} (which throws IllegalArgumentException
     * for a position that cannot be one); null without a cursor, a 400 for one that is not a cursor.
     */
    public static <T> T after(String cursor, Function<String, T> position) {
        if (cursor == null || cursor.isEmpty()) {
            return null;
        }
        try {
            return position.apply(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw QueryParameters.invalid("after", "must be the next cursor of a previous page");
        }
    }

    /** The cursor of the page that follows the item at this position. */
    public static String cursor(String position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }
}
