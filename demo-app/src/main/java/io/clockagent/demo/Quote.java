package io.clockagent.demo;

/** The priced result of one {@link Basket}, and what pricing it cost in clock reads; immutable. */
final class Quote {

    private final long totalCents;
    private final int items;
    private final int cacheMisses;
    private final long clockReads;

    Quote(long totalCents, int items, int cacheMisses, long clockReads) {
        this.totalCents = totalCents;
        this.items = items;
        this.cacheMisses = cacheMisses;
        this.clockReads = clockReads;
    }

    long totalCents() {
        return totalCents;
    }

    int items() {
        return items;
    }

    int cacheMisses() {
        return cacheMisses;
    }

    long clockReads() {
        return clockReads;
    }
}
