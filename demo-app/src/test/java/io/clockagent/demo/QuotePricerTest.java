package io.clockagent.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class QuotePricerTest {

    private static final Deadline NEVER = Deadline.after(Long.MAX_VALUE / 2, 0);
    private static final Deadline ALREADY_PASSED = Deadline.after(0, 0);

    @Test
    void theTotalIsTheSameWhetherTheCacheHitsOrMisses() {
        QuotePricer pricer = new QuotePricer(new TtlCache<>(60_000, 100));
        Basket basket = Basket.parseQuery("items=7x1,8x5,7x2");

        Quote cold = pricer.price(basket, NEVER);
        Quote warm = pricer.price(basket, NEVER);

        assertEquals(cold.totalCents(), warm.totalCents());
        assertEquals(2, cold.cacheMisses());
        assertEquals(0, warm.cacheMisses());
        long expected = Catalog.unitPriceCents(7) * 3 + QuotePricer.lineCents(Catalog.unitPriceCents(8), 5);
        assertEquals(expected, cold.totalCents());
    }

    @Test
    void readsTheClockTwicePerItemAndOncePerMiss() {
        QuotePricer pricer = new QuotePricer(new TtlCache<>(60_000, 100));

        assertEquals(2 * 3 + 2, pricer.price(Basket.parseQuery("items=1x1,2x1,1x1"), NEVER).clockReads());
        assertEquals(2 * 3, pricer.price(Basket.parseQuery("items=1x1,2x1,1x1"), NEVER).clockReads());
    }

    @Test
    void aPassedDeadlineStopsPricingAtTheFirstCheck() {
        QuotePricer pricer = new QuotePricer(new TtlCache<>(60_000, 100));

        PricingTimedOutException late = assertThrows(PricingTimedOutException.class,
                () -> pricer.price(Basket.parseQuery("items=1x1,2x1"), ALREADY_PASSED));

        assertEquals(1, late.clockReads());
    }

    @Test
    void bulkQuantitiesGetTenPercentOff() {
        assertEquals(400, QuotePricer.lineCents(100, 4));
        assertEquals(450, QuotePricer.lineCents(100, 5));
    }

    @Test
    void centsAreFormattedWithTwoDecimals() {
        assertEquals("0.05", QuoteHandler.formatCents(5));
        assertEquals("12.30", QuoteHandler.formatCents(1_230));
        assertEquals("1234.56", QuoteHandler.formatCents(123_456));
    }
}
