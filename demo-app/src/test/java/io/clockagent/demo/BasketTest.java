package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BasketTest {

    @Test
    void parsesSkusAndQuantitiesInOrder() {
        Basket basket = Basket.parseQuery("items=12x3,0x1,999999x1000");

        assertEquals(3, basket.size());
        assertEquals(12, basket.sku(0));
        assertEquals(3, basket.quantity(0));
        assertEquals(0, basket.sku(1));
        assertEquals(999_999, basket.sku(2));
        assertEquals(1_000, basket.quantity(2));
    }

    @ParameterizedTest(name = "''{0}'' is refused: {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
        "NULL                | expected ?items=",
        "''                  | expected ?items=",
        "items=              | expected ?items=",
        "sku=1x1             | expected ?items=",
        "items=1             | '1' is not SKUxQTY",
        "items=x1            | 'x1' is not SKUxQTY",
        "items=1x            | '1x' is not SKUxQTY",
        "items=1x1,          | '' is not SKUxQTY",
        "items=1x0           | quantity 0",
        "items=1x1001        | QTY <= 1000",
        "items=1000001x1     | SKU <= 1000000",
        "items=-1x1          | '-1x1' is not SKUxQTY",
        "items=1x1&debug=1   | is not SKUxQTY",
    })
    void malformedQueriesAreRefusedSayingWhy(String query, String reason) {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> Basket.parseQuery(query));

        assertTrue(refused.getMessage().contains(reason), refused.getMessage());
    }

    @Test
    void moreThanTheMaximumNumberOfItemsIsRefused() {
        StringBuilder query = new StringBuilder("items=1x1");
        for (int i = 1; i <= Basket.MAX_ITEMS; i++) {
            query.append(",1x1");
        }

        assertThrows(IllegalArgumentException.class, () -> Basket.parseQuery(query.toString()));
    }
}
