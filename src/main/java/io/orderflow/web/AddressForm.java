package io.orderflow.web;

import java.text.Collator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.orderflow.customer.ShippingAddress;

/**
 * The checkout's delivery address as typed, each field shown again as it was posted. It always names an
 * address, so a blank field is refused beside it by the order rules rather than replaced by a saved one.
 */
public record AddressForm(String name, String line1, String line2, String city, String region, String postalCode, String country,
        String phone) {

    static final AddressForm EMPTY = new AddressForm("", "", "", "", "", "", "", "");

    /** The order rules' names of the address's fields, as the form's fields ({@code address-line1}). */
    private static final Map<String, String> FIELDS = Map.of("shippingAddress.name", "name", "shippingAddress.lines", "line1",
            "shippingAddress.lines[0]", "line1", "shippingAddress.lines[1]", "line2", "shippingAddress.city", "city",
            "shippingAddress.region", "region", "shippingAddress.postalCode", "postalCode", "shippingAddress.country", "country",
            "shippingAddress.phone", "phone");

    /** A country the form offers: its ISO code and its name in the page's language. */
    public record Country(String code, String name) {
    }

    static AddressForm of(ShippingAddress saved) {
        List<String> lines = saved.lines();
        return new AddressForm(saved.name(), lines.get(0), lines.size() > 1 ? String.join(", ", lines.subList(1, lines.size())) : "",
                saved.city(), orBlank(saved.region()), orBlank(saved.postalCode()), saved.country(), orBlank(saved.phone()));
    }

    static AddressForm posted(String name, String line1, String line2, String city, String region, String postalCode, String country,
            String phone) {
        return new AddressForm(orBlank(name), orBlank(line1), orBlank(line2), orBlank(city), orBlank(region), orBlank(postalCode),
                orBlank(country), orBlank(phone));
    }

    /** The address the form names; the second line only when something is typed in it. */
    ShippingAddress address() {
        List<String> lines = new ArrayList<>(List.of(line1));
        if (!line2.isBlank()) {
            lines.add(line2);
        }
        return new ShippingAddress(name, lines, city, region, postalCode, country, phone);
    }

    /** The form field ({@code line1}) of an order rule's field name, when it is one of the address's. */
    static Optional<String> fieldOf(String field) {
        return Optional.ofNullable(FIELDS.get(field));
    }

    /** Every country ISO 3166-1 assigns, by its name in the locale. */
    static List<Country> countries(Locale locale) {
        return Locale.getISOCountries(Locale.IsoCountryCode.PART1_ALPHA2).stream()
                .map(code -> new Country(code, countryName(code, locale)))
                .sorted(Comparator.comparing(Country::name, Collator.getInstance(locale)))
                .toList();
    }

    static String countryName(String code, Locale locale) {
        return new Locale("", code).getDisplayCountry(locale);
    }

    private static String orBlank(String value) {
        return value == null ? "" : value;
    }
}
