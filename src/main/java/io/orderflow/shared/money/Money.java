package io.orderflow.shared.money;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import io.orderflow.shared.problem.FieldError;

/** Amounts are decimals in a currency's major unit, exact to its minor unit: CNY has two minor digits ({@code "12.50"}), JPY none. */
public final class Money {

    /** An amount as a client writes it in text: digits with an optional fraction, no sign, no exponent. */
    public static final Pattern DECIMAL = Pattern.compile("\\d{1,16}(\\.\\d{1,16})?");

    /**
     * The JSON members that hold an amount, wherever they stand in a request body. Their decimal
     * strings are amounts, not names: fingerprints compare them by value (see CanonicalJson).
     */
    public static final Set<String> AMOUNT_MEMBERS = Set.of("amount", "price", "totalAmount", "unitPrice");

    private Money() {
    }

    public static int minorDigits(String currency) {
        return Math.max(0, Currency.getInstance(currency).getDefaultFractionDigits());
    }

    /** True when the amount needs no more decimals than the currency has ({@code 12.50} yes, {@code 12.505} no). */
    public static boolean isExact(BigDecimal amount, String currency) {
        return amount.stripTrailingZeros().scale() <= minorDigits(currency);
    }

    /** The complaint about {@code field} when its amount needs more decimals than the currency has. */
    public static Optional<FieldError> inexact(String field, BigDecimal amount, String currency) {
        return isExact(amount, currency) ? Optional.empty()
                : Optional.of(new FieldError(field, "must have at most " + minorDigits(currency) + " decimals in " + currency));
    }

    /** The amount at the currency's scale; callers pass exact amounts only. */
    public static BigDecimal normalize(BigDecimal amount, String currency) {
        return amount.setScale(minorDigits(currency), RoundingMode.UNNECESSARY);
    }

    public static String format(BigDecimal amount, String currency) {
        return normalize(amount, currency).toPlainString();
    }
}
