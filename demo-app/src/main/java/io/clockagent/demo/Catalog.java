package io.clockagent.demo;

/**
 * The price list: a SKU's unit price, computed deterministically and at a deliberate cost that stands in for the
 * database query a real service would make. Stateless.
 */
final class Catalog {

    /** How many mixing rounds one lookup costs: about a microsecond, so that the TTL cache is worth having. */
    static final int LOOKUP_ROUNDS = 400;
    static final long MIN_PRICE_CENTS = 99L;
    static final long PRICE_RANGE_CENTS = 49_900L;

    private Catalog() {
    }

    static long unitPriceCents(int sku) {
        long state = sku * 0x9E3779B97F4A7C15L;
        for (int round = 0; round < LOOKUP_ROUNDS; round++) {
            state = mix(state + round);
        }
        return MIN_PRICE_CENTS + Math.floorMod(state, PRICE_RANGE_CENTS);
    }

    /** The finalizer of SplitMix64: every input bit affects every output bit. */
    static long mix(long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
