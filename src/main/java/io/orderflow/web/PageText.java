package io.orderflow.web;

import java.math.BigDecimal;
import java.text.MessageFormat;
import java.text.NumberFormat;
import java.util.Currency;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * The pages' words, in {@code messages/pages.properties} (English) and {@code messages/pages_zh_CN.properties}
 * (Simplified Chinese), each a {@link MessageFormat} pattern. Templates read them as {@code {msg:key}} or
 * {@code {msg:key(arg, ...)}}; page classes through {@link #get}, in the language of the page being rendered.
 */
@ApplicationScoped
public class PageText {

    static final String BUNDLE = "messages.pages";
    /** Where the words for the order rules' messages start: {@code validation_is_required}. */
    private static final String VALIDATION = "validation_";

    private final PageLocale locale;

    public PageText(PageLocale locale) {
        this.locale = locale;
    }

    /** The key's words in the current page's language. */
    public String get(String key, Object... arguments) {
        return of(locale.locale(), key, arguments);
    }

    /** An amount ({@code "25.00"}) in a currency, as the current page's language writes money. */
    public String amount(String amount, String currency) {
        return amount(locale.locale(), amount, currency);
    }

    /**
     * "25.00 CNY" in English, the shop's way for every currency; in Chinese as the locale writes money ("¥25.00",
     * "US$25.00"), with the currency's minor digits.
     */
    static String amount(Locale language, String amount, String currency) {
        if (!language.getLanguage().equals(Locale.CHINESE.getLanguage())) {
            return amount + " " + currency;
        }
        try {
            NumberFormat money = NumberFormat.getCurrencyInstance(language);
            Currency unit = Currency.getInstance(currency);
            money.setCurrency(unit);
            money.setMinimumFractionDigits(Math.max(unit.getDefaultFractionDigits(), 0));
            money.setMaximumFractionDigits(Math.max(unit.getDefaultFractionDigits(), 0));
            return money.format(new BigDecimal(amount));
        } catch (IllegalArgumentException notAnAmount) {
            return amount + " " + currency;
        }
    }

    public String get(Phrase phrase) {
        return get(phrase.key(), phrase.arguments().toArray());
    }

    /**
     * An order rule's message ({@code "is required"}) in the current page's language; in English, and where the
     * bundle has no words for it, as the API says it.
     */
    public String rule(String message) {
        ResourceBundle bundle = bundle(locale.locale());
        String key = VALIDATION + message.replaceAll("[^A-Za-z0-9]+", "_");
        return bundle.containsKey(key) ? bundle.getString(key) : message;
    }

    /** A message, such as a rule's, as a sentence of the page: "Is required." */
    public String sentence(String message) {
        return get("checkout_sentence", Character.toUpperCase(message.charAt(0)) + message.substring(1));
    }

    static String of(Locale locale, String key, Object... arguments) {
        String pattern = bundle(locale).getString(key);
        return new MessageFormat(pattern, locale).format(arguments);
    }

    static ResourceBundle bundle(Locale locale) {
        try {
            return ResourceBundle.getBundle(BUNDLE, locale, ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
        } catch (MissingResourceException e) {
            throw new IllegalStateException("The pages' words are missing from the build", e);
        }
    }
}
