package io.orderflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import io.orderflow.support.FastTest;

/**
 * The settings table of docs/configuration.md says what the code does: every setting of a feature's
 * {@code @ConfigMapping} has a row, and the default the row gives is the one written in the mapping.
 */
@FastTest
class ConfigurationDocsTest {

    private static final Path TABLE = Path.of("docs/configuration.md");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** Each mapped setting with its default (null for a setting without one). */
    private static Map<String, String> mappedSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.orderflow")) {
            if (type.isAnnotatedWith(ConfigMapping.class)) {
                Class<?> mapping = type.reflect();
                collect(mapping.getAnnotation(ConfigMapping.class).prefix(), mapping, settings);
            }
        }
        return settings;
    }

    private static void collect(String prefix, Class<?> group, Map<String, String> settings) {
        for (Method setting : group.getDeclaredMethods()) {
            if (setting.isDefault() || java.lang.reflect.Modifier.isStatic(setting.getModifiers())) {
                continue;
            }
            String name = prefix + "." + setting.getName().replaceAll("([A-Z])", "-$1").toLowerCase(Locale.ROOT);
            if (setting.getReturnType().isInterface() && setting.getReturnType().getName().startsWith("io.orderflow")) {
                collect(name, setting.getReturnType(), settings);
            } else {
                WithDefault value = setting.getAnnotation(WithDefault.class);
                settings.put(name, value == null ? null : value.value());
            }
        }
    }

    /**
     * The rows of the table, by setting, with the default each gives. A row may name several settings of one
     * group ({@code `orders.outbox.max-attempts`, `base-delay`}) and their defaults in the same order.
     */
    private static Map<String, String> documentedSettings() throws IOException {
        Map<String, String> documented = new LinkedHashMap<>();
        for (String line : Files.readAllLines(TABLE)) {
            String[] cells = line.split("\\|");
            if (cells.length < 5 || !cells[1].contains("`")) {
                continue;
            }
            List<String> names = codes(cells[1]);
            List<String> defaults = codes(cells[3]);
            String group = names.get(0).substring(0, names.get(0).lastIndexOf('.') + 1);
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i).contains(".") ? names.get(i) : group + names.get(i);
                documented.put(name, defaults.size() == names.size() ? defaults.get(i) : cells[3].trim());
            }
        }
        return documented;
    }

    private static List<String> codes(String cell) {
        List<String> codes = new ArrayList<>();
        Matcher code = CODE.matcher(cell);
        while (code.find()) {
            codes.add(code.group(1));
        }
        return codes;
    }

    @Test
    void everyMappedSettingHasARowWithItsDefault() throws IOException {
        Map<String, String> mapped = mappedSettings();
        Map<String, String> documented = documentedSettings();

        assertThat(mapped).hasSizeGreaterThan(40);
        assertThat(documented.keySet()).as("settings without a row in " + TABLE).containsAll(mapped.keySet());
        mapped.forEach((name, value) -> {
            if (value != null && !value.startsWith("${")) {
                assertThat(documented.get(name)).as("the default of " + name + " in " + TABLE).isEqualToIgnoringCase(value);
            }
        });
    }
}
