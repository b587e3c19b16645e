package io.orderflow.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The statements of a migration that the release before it may not survive, since it still runs against the schema they
 * leave during a rolling upgrade: what removes or renames something it reads or writes, changes a column's type, or
 * refuses rows it writes (a new NOT NULL without a default, a new CHECK, UNIQUE or foreign key). Expand-then-contract
 * moves such a change a release later, once nothing deployed reads what it removes.
 */
final class ContractingStatements {

    private static final Pattern ADD_COLUMN = Pattern.compile("\\bADD\\s+(COLUMN\\s+)?(IF\\s+NOT\\s+EXISTS\\s+)?(?!CONSTRAINT\\b|CHECK\\b|UNIQUE\\b"
            + "|FOREIGN\\b|EXCLUDE\\b|PRIMARY\\b)\\w+\\s");
    private static final Pattern NOT_NULL = Pattern.compile("\\bNOT\\s+NULL\\b");
    private static final Pattern FILLED = Pattern.compile("\\b(DEFAULT|GENERATED)\\b");
    private static final List<Rule> RULES = List.of(
            new Rule("drops something", "\\bDROP\\s+(?!NOT\\s+NULL\\b)"),
            new Rule("renames something", "\\bRENAME\\b"),
            new Rule("changes a column's type", "\\bALTER\\s+(COLUMN\\s+)?\\w+\\s+(SET\\s+DATA\\s+)?TYPE\\b"),
            new Rule("makes a column NOT NULL", "\\bSET\\s+NOT\\s+NULL\\b"),
            new Rule("adds a constraint that refuses rows", "\\bADD\\s+(CONSTRAINT\\s+\\w+\\s+)?(CHECK|UNIQUE|FOREIGN\\s+KEY|EXCLUDE|PRIMARY\\s+KEY)\\b"),
            new Rule("adds a unique index", "\\bCREATE\\s+UNIQUE\\s+INDEX\\b"));

    /** A statement found, and why the previous release may not run against what it leaves. */
    record Finding(String statement, String why) {
    }

    private record Rule(String why, Pattern pattern) {
        Rule(String why, String regex) {
            this(why, Pattern.compile(regex));
        }
    }

    private ContractingStatements() {
    }

    /** Every contracting statement of a migration's SQL, each in its normalised form (upper case, one space). */
    static List<Finding> in(String sql) {
        List<Finding> findings = new ArrayList<>();
        for (String statement : statements(sql)) {
            for (Rule rule : RULES) {
                if (rule.pattern().matcher(statement).find()) {
                    findings.add(new Finding(statement, rule.why()));
                }
            }
            if (clauses(statement).stream().anyMatch(clause -> ADD_COLUMN.matcher(clause).find() && NOT_NULL.matcher(clause).find()
                    && !FILLED.matcher(clause).find())) {
                findings.add(new Finding(statement, "adds a NOT NULL column without a default"));
            }
        }
        return findings;
    }

    /**
     * The statements, without comments, with string literals emptied and quoted identifiers made plain words, in upper
     * case with single spaces; a dollar-quoted body (a DO block, a function) is read as statements of its own.
     */
    static List<String> statements(String sql) {
        StringBuilder plain = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (sql.startsWith("--", i)) {
                i = end(sql, "\n", i + 2);
            } else if (sql.startsWith("/*", i)) {
                i = end(sql, "*/", i + 2);
                plain.append(' ');
            } else if (c == '\'') {
                i = end(sql, "'", i + 1);
                plain.append("''");
            } else if (c == '"') {
                int close = end(sql, "\"", i + 1);
                plain.append(sql, i + 1, close - 1).append(' ');
                i = close;
            } else if (c == '$' && sql.indexOf('$', i + 1) > 0 && sql.substring(i + 1, sql.indexOf('$', i + 1)).matches("\\w*")) {
                // A dollar quote's tag: its body is read as SQL too (the statements of a DO block run as any others).
                i = sql.indexOf('$', i + 1) + 1;
                plain.append(';');
            } else {
                plain.append(c);
                i++;
            }
        }
        List<String> statements = new ArrayList<>();
        for (String statement : plain.toString().split(";")) {
            String normalised = statement.replaceAll("\\s+", " ").trim().toUpperCase(Locale.ROOT);
            if (!normalised.isEmpty()) {
                statements.add(normalised);
            }
        }
        return statements;
    }

    /** The clauses of a statement: its parts between commas outside parentheses. */
    private static List<String> clauses(String statement) {
        List<String> clauses = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < statement.length(); i++) {
            char c = statement.charAt(i);
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth == 0) {
                clauses.add(statement.substring(start, i));
                start = i + 1;
            }
        }
        clauses.add(statement.substring(start));
        return clauses;
    }

    /** The index just past the next {@code close} from {@code from}, or the end of the text. */
    private static int end(String sql, String close, int from) {
        int found = sql.indexOf(close, from);
        return found < 0 ? sql.length() : found + close.length();
    }
}
