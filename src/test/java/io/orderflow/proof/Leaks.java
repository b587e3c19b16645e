package io.orderflow.proof;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** What no answer may show of the inside: exception and class names, stack frames, SQL and the database's own words. */
final class Leaks {

    private static final List<String> MARKERS = List.of("Exception", "Caused by", "at io.", "java.", "jakarta.", "com.fasterxml",
            "io.orderflow", "io.quarkus", "io.vertx", "io.netty", "org.jboss", "org.hibernate", "Hibernate", "org.postgresql");

    private static final List<Pattern> PATTERNS = List.of(
            // A fully qualified class name such as com.example.SomeType.
            Pattern.compile("\\b[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+\\.[A-Z]\\w*"),
            // A stack frame: "at some.Type.method(".
            Pattern.compile("\\bat [a-z][\\w$]*\\.[\\w$.]+\\("),
            // SQL or PSQL as a word of its own, not inside a random token or cursor that happens to spell it.
            Pattern.compile("(?<![A-Za-z0-9+/_=-])P?SQL"),
            Pattern.compile("(?i)\\b(select\\s.+\\sfrom|insert\\s+into|update\\s+\\w+\\s+set|delete\\s+from|syntax error at or near"
                    + "|violates \\w+ constraint|duplicate key value|relation \"\\w+\")"));

    private Leaks() {
    }

    /** Every marker and pattern found in the text; empty when it gives nothing away. */
    static List<String> in(String text) {
        List<String> found = new ArrayList<>();
        MARKERS.stream().filter(text::contains).forEach(found::add);
        PATTERNS.forEach(pattern -> pattern.matcher(text).results().forEach(match -> found.add(match.group())));
        return found;
    }
}
