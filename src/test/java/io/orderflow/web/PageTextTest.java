package io.orderflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.orderflow.lifecycle.OrderEvent;
import io.orderflow.lifecycle.OrderStatus;
import io.orderflow.support.FastTest;

/** The pages' words: every page's key is there in both languages, and every pattern reads. */
@FastTest
class PageTextTest {

    private static final Pattern TEMPLATE_KEY = Pattern.compile("\\{msg:([A-Za-z0-9_]+)");

    @Test
    void bothLanguagesHaveTheSameWordsBesidesTheRulesTranslatedIntoChinese() {
        Set<String> english = keys(Locale.ENGLISH);
        Set<String> chinese = keys(Locale.SIMPLIFIED_CHINESE);

        assertThat(chinese).containsAll(english);
        assertThat(chinese.stream().filter(key -> !english.contains(key))).allMatch(key -> key.startsWith("validation_"));
    }

    @Test
    void everyKeyATemplateReadsIsThere() throws IOException {
        Set<String> used = new TreeSet<>();
        try (Stream<Path> templates = Files.list(Path.of("src/main/resources/templates"))) {
            for (Path template : templates.toList()) {
                Matcher key = TEMPLATE_KEY.matcher(Files.readString(template));
                while (key.find()) {
                    // named(...) builds a key, amount(...) writes money: both are the msg namespace's own.
                    if (!key.group(1).equals("named") && !key.group(1).equals("amount")) {
                        used.add(key.group(1));
                    }
                }
            }
        }
        assertThat(used).hasSizeGreaterThan(50);
        assertThat(keys(Locale.ENGLISH)).containsAll(used);
        // Keys the pages build from a name: every status, action, event and actor has its words.
        Set<String> named = new TreeSet<>();
        for (OrderStatus status : OrderStatus.values()) {
            named.add("status_" + status.wireName());
        }
        for (OrderEvent event : OrderEvent.values()) {
            named.add("event_" + event.wireName());
        }
        List.of("pay", "ship", "deliver", "cancel").forEach(action -> named.add("action_" + action));
        List.of("customer", "staff", "system").forEach(actor -> named.add("actor_" + actor));
        assertThat(keys(Locale.ENGLISH)).containsAll(named);
    }

    @Test
    void everyPatternIsAMessageFormatAndReadsAsExpected() {
        for (Locale language : PageLocale.LANGUAGES) {
            ResourceBundle bundle = PageText.bundle(language);
            for (String key : bundle.keySet()) {
                assertThat(new MessageFormat(bundle.getString(key), language).format(new Object[] { 7L, 7L, 7L, 7L })).as(key).isNotBlank();
            }
        }
        assertThat(PageText.of(Locale.ENGLISH, "order_title", 100005L)).isEqualTo("Order 100005");
        assertThat(PageText.of(Locale.SIMPLIFIED_CHINESE, "order_title", 100005L)).isEqualTo("订单 100005");
        assertThat(PageText.of(Locale.ENGLISH, "order_timeLeft_minutes", 1L)).isEqualTo("about 1 minute");
        assertThat(PageText.of(Locale.ENGLISH, "order_timeLeft_minutes", 29L)).isEqualTo("about 29 minutes");
        assertThat(PageText.of(Locale.SIMPLIFIED_CHINESE, "order_timeLeft_minutes", 29L)).isEqualTo("约 29 分钟");
        assertThat(PageText.of(Locale.ENGLISH, "order_invalidCommand")).contains("this form's command id");
        assertThat(PageText.amount(Locale.ENGLISH, "1250.00", "CNY")).isEqualTo("1250.00 CNY");
        assertThat(PageText.amount(Locale.SIMPLIFIED_CHINESE, "1250.00", "CNY")).isEqualTo("¥1,250.00");
        assertThat(PageText.amount(Locale.SIMPLIFIED_CHINESE, "1250", "JPY")).isEqualTo("JP¥1,250");
    }

    @Test
    void theLanguageIsTheBrowsersFirstThatThePagesSpeak() {
        assertThat(PageLocale.preferred("zh-CN,zh;q=0.9,en;q=0.8")).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        assertThat(PageLocale.preferred("fr-FR,zh-Hans;q=0.8,en;q=0.5")).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        assertThat(PageLocale.preferred("de, en-GB;q=0.9, zh;q=0.1")).isEqualTo(Locale.ENGLISH);
        assertThat(PageLocale.preferred("fr")).isEqualTo(Locale.ENGLISH);
        assertThat(PageLocale.preferred("zh;q=oops")).isEqualTo(Locale.ENGLISH);
        assertThat(PageLocale.preferred(null)).isEqualTo(Locale.ENGLISH);
        assertThat(PageLocale.language("ZH-cn")).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        assertThat(PageLocale.language("zh-TW")).isNull();
    }

    /** The keys of one language's own file (a missing Chinese word would otherwise be found in the English parent). */
    private static Set<String> keys(Locale language) {
        String file = "src/main/resources/messages/pages" + (language.equals(Locale.ENGLISH) ? "" : "_" + language) + ".properties";
        Properties words = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            words.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new TreeSet<>(words.stringPropertyNames());
    }
}
