package io.orderflow.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.orderflow.order.OrderRequest;
import io.orderflow.support.FastTest;

/** The checkout form's cart: what was chosen, what is wrong with it before the order rules are asked, and the order it makes. */
@FastTest
class CartTest {

    private static Cart posted(String... skuQuantityPriceCurrency) {
        List<String> skus = new ArrayList<>();
        List<String> quantities = new ArrayList<>();
        List<String> prices = new ArrayList<>();
        List<String> currencies = new ArrayList<>();
        for (int i = 0; i < skuQuantityPriceCurrency.length; i += 4) {
            skus.add(skuQuantityPriceCurrency[i]);
            quantities.add(skuQuantityPriceCurrency[i + 1]);
            prices.add(skuQuantityPriceCurrency[i + 2]);
            currencies.add(skuQuantityPriceCurrency[i + 3]);
        }
        return Cart.posted(skus, quantities, prices, currencies);
    }

    @Test
    void aCartOrdersItsChosenItemsAtTheShownPrices() {
        Cart cart = posted("A-1", "2", "12.50", "CNY", "B-2", "", "3.00", "CNY", "C-3", "0", "1.00", "CNY");

        assertThat(cart.itemErrors()).isEmpty();
        assertThat(cart.cartError()).isNull();
        assertThat(cart.request(null)).isEqualTo(new OrderRequest("CNY", List.of(new OrderRequest.Item("A-1", 2, new BigDecimal("12.50")))));
        assertThat(cart.total()).isEqualTo("25.00");
        assertThat(cart.currency()).isEqualTo("CNY");
    }

    @Test
    void aQuantityThatIsNoWholeNumberUpToTheLimitIsAnErrorOfItsItem() {
        Cart cart = posted("A-1", "1001", "1.00", "CNY", "B-2", "-1", "1.00", "CNY", "C-3", "2.5", "1.00", "CNY", "D-4", " 1000 ", "1.00", "CNY");

        assertThat(cart.itemErrors()).containsOnlyKeys("A-1", "B-2", "C-3")
                .containsEntry("A-1", Phrase.of("cart_wholeNumber", Cart.MAX_QUANTITY));
        assertThat(english(cart.itemErrors().get("A-1"))).isEqualTo("Enter a whole number from 0 to 1000.");
        assertThat(cart.chosen()).extracting(Cart.Item::sku).containsExactly("A-1", "B-2", "C-3", "D-4");
    }

    @Test
    void aShownPriceThatCannotBeReadAsksForAReload() {
        assertThat(posted("A-1", "1", "12,50", "CNY").itemErrors()).containsExactly(Map.entry("A-1", Phrase.of("cart_unreadablePrice")));
    }

    @Test
    void aCartWithNothingChosenOrInTwoCurrenciesIsRefusedAsAWhole() {
        assertThat(english(posted("A-1", "0", "1.00", "CNY").cartError())).isEqualTo("Choose at least one item: set its quantity above 0.");
        assertThat(Cart.empty().cartError()).isEqualTo(Phrase.of("cart_chooseOne"));
        assertThat(english(posted("A-1", "1", "1.00", "CNY", "B-2", "1", "100", "JPY").cartError()))
                .isEqualTo("An order is paid in one currency: order the items priced in CNY, JPY separately.");
    }

    private static String english(Phrase phrase) {
        return PageText.of(Locale.ENGLISH, phrase.key(), phrase.arguments().toArray());
    }

    @Test
    void missingEntriesOfTheFormsListsCountAsEmpty() {
        Cart cart = Cart.posted(List.of("A-1", "B-2"), List.of("1"), null, List.of("CNY"));

        assertThat(cart.items()).containsExactly(new Cart.Item("A-1", "1", "", "CNY"), new Cart.Item("B-2", "", "", ""));
        assertThat(cart.chosen()).extracting(Cart.Item::sku).containsExactly("A-1");
    }

    @Test
    void aRepricedCartShowsTheNewPricesAndKeepsWhatWasTyped() {
        Cart repriced = posted("A-1", "2", "12.50", "CNY", "B-2", "1", "3.00", "CNY").repriced(Map.of("A-1", "13.00"));

        assertThat(repriced.item("A-1")).contains(new Cart.Item("A-1", "2", "13.00", "CNY"));
        assertThat(repriced.total()).isEqualTo("29.00");
    }
}
