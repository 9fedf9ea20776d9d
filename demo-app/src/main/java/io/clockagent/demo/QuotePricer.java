package io.clockagent.demo;

/**
 * Prices a basket through the TTL cache in front of the {@link Catalog}, checking the request's deadline before
 * each item; safe for any number of request threads.
 *
 * <p>Clock reads: per item one deadline check and one cache lookup, plus one cache store per miss. A request that
 * runs out of time stops at the failing check.
 */
final class QuotePricer {

    /** Quantities from this up get the bulk discount. */
    static final int BULK_QUANTITY = 5;
    static final int BULK_DISCOUNT_PERCENT = 10;

    private final TtlCache<Integer, Long> unitPrices;

    QuotePricer(TtlCache<Integer, Long> unitPrices) {
        this.unitPrices = unitPrices;
    }

    /**
     * @throws PricingTimedOutException when the deadline passes before the last item is priced
     */
    Quote price(Basket basket, Deadline deadline) {
        long totalCents = 0;
        int misses = 0;
        for (int i = 0; i < basket.size(); i++) {
            try {
                deadline.check();
            } catch (DeadlineExceededException late) {
                throw new PricingTimedOutException(late, 2L * i + 1 + misses);
            }
            int sku = basket.sku(i);
            Long unitPriceCents = unitPrices.get(sku);
            if (unitPriceCents == null) {
                unitPriceCents = Catalog.unitPriceCents(sku);
                unitPrices.put(sku, unitPriceCents);
                misses++;
            }
            totalCents += lineCents(unitPriceCents, basket.quantity(i));
        }
        return new Quote(totalCents, basket.size(), misses, 2L * basket.size() + misses);
    }

    static long lineCents(long unitPriceCents, int quantity) {
        long lineCents = unitPriceCents * quantity;
        if (quantity >= BULK_QUANTITY) {
            lineCents -= lineCents * BULK_DISCOUNT_PERCENT / 100;
        }
        return lineCents;
    }
}
