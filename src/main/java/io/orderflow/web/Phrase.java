package io.orderflow.web;

import java.util.List;

/** Words of the pages not yet in a language: a key of {@link PageText} and its arguments. */
record Phrase(String key, List<Object> arguments) {

    static Phrase of(String key, Object... arguments) {
        return new Phrase(key, List.of(arguments));
    }
}
