package io.orderflow.customer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Where an order goes: what the warehouse prints on the parcel. Name, at least one line, city and country
 * are required; region, postal code and phone are not, since many places have none (blank counts as absent). Text is one line each,
 * without control characters, so that nothing typed can break a label or a log line.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "A shipping address; country is an ISO 3166-1 alpha-2 code")
public record ShippingAddress(
        @NotBlank(message = "is required")
        @Size(max = 100, message = "must be at most 100 characters")
        @Pattern(regexp = ONE_LINE, message = ONE_LINE_MESSAGE)
        @Schema(examples = "Li Lei", maxLength = 100)
        String name,

        @NotNull(message = "is required")
        @Size(min = 1, max = 3, message = "must hold 1 to 3 lines")
        List<@NotBlank(message = "must not be blank")
        @Size(max = 100, message = "must be at most 100 characters")
        @Pattern(regexp = ONE_LINE, message = ONE_LINE_MESSAGE) String> lines,

        @NotBlank(message = "is required")
        @Size(max = 100, message = "must be at most 100 characters")
        @Pattern(regexp = ONE_LINE, message = ONE_LINE_MESSAGE)
        @Schema(examples = "Shanghai", maxLength = 100)
        String city,

        @Size(max = 100, message = "must be at most 100 characters")
        @Pattern(regexp = ONE_LINE, message = ONE_LINE_MESSAGE)
        @Schema(description = "Province, state or region, where the country has them", maxLength = 100)
        String region,

        @Pattern(regexp = "\\s*|\\s*[A-Za-z0-9][A-Za-z0-9 -]{0,15}\\s*", message = "must be 1 to 16 letters, digits, spaces or '-'")
        @Schema(examples = "200031")
        String postalCode,

        @NotNull(message = "is required")
        @Pattern(regexp = "[A-Z]{2}", message = "must be an ISO 3166-1 alpha-2 code such as CN")
        @Schema(examples = "CN", pattern = "[A-Z]{2}")
        String country,

        @Pattern(regexp = "\\s*|\\s*\\+?[0-9][0-9 ()-]{4,24}\\s*", message = "must be 5 to 25 digits, spaces, '(', ')' or '-', optionally after '+'")
        @Schema(examples = "+86 21 5555 0100")
        String phone) {

    static final String ONE_LINE = "[^\\p{Cntrl}]*";
    static final String ONE_LINE_MESSAGE = "must be one line of text";

    private static final Set<String> COUNTRIES = Locale.getISOCountries(Locale.IsoCountryCode.PART1_ALPHA2);

    /** Whether the country is one ISO 3166-1 assigns; the pattern alone would accept {@code ZZ}. */
    public static boolean isCountry(String code) {
        return COUNTRIES.contains(code);
    }

    /** The same address with its text trimmed and blank optional fields left out: what is stored and compared. */
    public ShippingAddress canonical() {
        return new ShippingAddress(name.strip(), lines.stream().map(String::strip).toList(), city.strip(), optional(region),
                optional(postalCode), country, optional(phone));
    }

    /** Its fields by name, blank ones left out, for a request's fingerprint. */
    public Map<String, Object> fingerprinted() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", name);
        fields.put("lines", lines);
        fields.put("city", city);
        fields.put("country", country);
        if (region != null) {
            fields.put("region", region);
        }
        if (postalCode != null) {
            fields.put("postalCode", postalCode);
        }
        if (phone != null) {
            fields.put("phone", phone);
        }
        return fields;
    }

    private static String optional(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
