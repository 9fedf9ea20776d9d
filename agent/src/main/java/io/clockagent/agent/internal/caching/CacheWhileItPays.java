package io.clockagent.agent.internal.caching;

/**
 * {@code cache=auto}: the value stays published only while caching pays at the read rate the ticker estimates, as
 * {@link CachingDecision} rules. While caching, the ticker withdraws the value for short sampling windows at random
 * times and counts the reads that go direct in them ({@link SampledReads}); while reads go direct, it counts every one,
 * slot by slot ({@link DirectReadHistory}), until their rate pays for caching again, and looks once a second while
 * they come at a rate far from paying. Reads start on the direct clock. While caching, it also prices a direct read in
 * the service ({@link DirectReadPrice}), in pairs of longer windows, often as caching first starts and seldom after.
 * Used by the ticker thread only, but for {@link #decision()}, whose figures any thread may read.
 */
final class CacheWhileItPays implements CacheGate {

    /** While caching: how long each sampling window withdraws the value to count direct reads. */
    static final long SAMPLE_WINDOW_NANOS = 500_000L;
    /** While caching: windows a second, and fewer where the rate pays clearly. */
    static final int WINDOWS_PER_SECOND = 20;
    static final int CLEAR_WINDOWS_PER_SECOND = 4;
    /**
     * While reads go direct: how soon the ticker looks at their count after a read woke it, and again while the last
     * look's rate alone would pay; otherwise it looks once a slot, since every wake-up costs CPU.
     */
    static final long DIRECT_LOOK_NANOS = 10_000_000L;
    /**
     * While reads go direct at a rate far from paying ({@link CachingDecision#worthWatching}): how long the ticker
     * rests between two looks at their count. Readers wake it meanwhile only once a stripe of the count has grown by
     * some 65,000 (see the clock class), so that a service that reads now and then wakes it once a rest rather than at
     * each read, and a burst wakes it within milliseconds.
     */
    static final long REST_NANOS = 1_000_000_000L;
    /**
     * While caching: how long each segment of a price's pair lasts, and how many of each kind, counted then direct, a
     * pair has in turn (see {@link DirectReadPrice} for why short ones in turn).
     */
    static final long PRICE_SEGMENT_NANOS = 8_000_000L;
    static final int PRICE_SEGMENTS_A_KIND = 3;
    /**
     * The mean time between two pairs for the first {@value #PROMPT_PAIRS}, so that a first price comes within seconds
     * of caching's start, at a twentieth of the reads sent direct meanwhile; then the mean time between two, at under
     * a hundredth, so that the price's standard error keeps shrinking to its kept pairs' over minutes; and once the
     * price is taken, at under a thousandth, as it then only follows the service's drift.
     */
    static final long PROMPT_PRICE_INTERVAL_NANOS = 500_000_000L;
    static final int PROMPT_PAIRS = 15;
    static final long PRICE_INTERVAL_NANOS = 3_000_000_000L;
    static final long PRICED_INTERVAL_NANOS = 30_000_000_000L;

    private final CachingDecision decision;
    /*
     * Made with the gate, on the ticker thread as it starts: a JVM that never starts the ticker never loads their
     * classes.
     */
    private final SampledReads sampledReads = new SampledReads();
    private final DirectReadHistory directReadHistory = new DirectReadHistory();
    /** When the next sampling window is due, and how many a second. */
    private long nextWindowNanos;
    private int windowsPerSecond = WINDOWS_PER_SECOND;
    private long randomBits = System.nanoTime() | 1;
    /*
     * The price's pairs: when the next is due and how many were measured; while a counted segment of one counts the
     * cached reads, the segments of its kind so far and when it started, with the service's CPU time and the count of
     * reads then. False where the service's CPU time cannot be read.
     */
    private boolean pricing = true;
    private long nextPriceNanos;
    private int pricePairs;
    private boolean counting;
    private int countedSegments;
    private long countingSinceNanos;
    private long countingSinceCpuNanos;
    private long countingSinceReads;
    /*
     * The CPU time the JVM's compilers and VM threads had spent at the end of the last pair, or at the first reading,
     * and when; 0 before.
     */
    private long fixedJvmCpuSinceNanos;
    private long fixedJvmCpuSinceWallNanos;
    /* What the ticker has spent since it last started ticking: wall and CPU nanoseconds. */
    private long tickingSinceNanos;
    private long tickingSinceCpuNanos;

    /** On the ticker thread, with the decision made with the ticker, which any thread may read from then on. */
    CacheWhileItPays(CachingDecision decision) {
        this.decision = decision;
        decision.savedCpu().begin(System.nanoTime());
    }

    /** Measures what a direct call costs, then counts the reads that go direct until caching pays. */
    @Override
    public boolean opensOnFirstRead(GatedTicker ticker) {
        decision.directCallMeasured(ticker.measureDirectCallNanos());
        return directUntilCachingPays(ticker);
    }

    /** Starts counting what the ticking costs from here. */
    @Override
    public void tickingStarts() {
        tickingSinceNanos = System.nanoTime();
        tickingSinceCpuNanos = ThreadCpuTime.currentThreadNanos();
    }

    /**
     * Where a sampling window falls due before the boundary: waits for it, withdraws the value for it, counts the reads
     * that go direct meanwhile, and publishes afresh. Readers go direct during the window, never stale.
     */
    @Override
    public boolean sampledBefore(long boundaryWallNanos, GatedTicker ticker) {
        long nowNanos = System.nanoTime();
        if (counting) {
            // No sampling window meanwhile: it would end the count. A counted segment ends at the tick after.
            if (nowNanos - countingSinceNanos < PRICE_SEGMENT_NANOS) {
                return false;
            }
            directSegment(ticker);
            return true;
        }
        if (pricing && nowNanos - nextPriceNanos >= 0 && startPair(ticker)) {
            return false;
        }
        if (nextWindowNanos - nowNanos >= boundaryWallNanos - ticker.wallNanosNow()) {
            return false;
        }
        ticker.parkUntil(System.nanoTime(), nextWindowNanos - System.nanoTime());
        ticker.withdraw();
        long readsBefore = ticker.directReads();
        long startNanos = System.nanoTime();
        long elapsedNanos = ticker.parkUntil(startNanos, SAMPLE_WINDOW_NANOS);
        sampledReads.window(ticker.directReads() - readsBefore, elapsedNanos, startNanos + elapsedNanos);
        nextWindowNanos = startNanos + elapsedNanos + windowGapNanos();
        ticker.publish();
        return true;
    }

    /** The decision waits for a window, so that it never decides on none. */
    @Override
    public boolean readyToReview() {
        return sampledReads.windows() > 0;
    }

    /**
     * Records what the ticking cost and decides from the sampling windows of the interval. Where caching stops, reads
     * go direct until their count shows that it pays again; where it goes on but no window saw a read, the ticker
     * idles until the next read.
     */
    @Override
    public boolean review(GatedTicker ticker) {
        long cpuNanos = ThreadCpuTime.currentThreadNanos();
        long nowNanos = System.nanoTime();
        long tickedNanos = nowNanos - tickingSinceNanos;
        if (cpuNanos != ThreadCpuTime.UNKNOWN && tickingSinceCpuNanos != ThreadCpuTime.UNKNOWN && tickedNanos > 0) {
            decision.tickerCostMeasured((cpuNanos - tickingSinceCpuNanos) * 1e9 / tickedNanos);
        }
        double sampledReadsPerSecond = sampledReads.readsPerSecond();
        // Served from the cache since ticking started or the last account, whichever is later, but in the windows; at
        // the rate they come while cached, which a saturated service raises for not paying the direct call.
        SavedCpu savedCpu = decision.savedCpu();
        long cachedNanos = nowNanos - Math.max(tickingSinceNanos, savedCpu.accountedAtNanos())
                - sampledReads.windowNanos();
        double cachedReadsPerSecond = sampledReadsPerSecond * decision.directReadPrice().cachedToDirectReadRate();
        savedCpu.account(cachedReadsPerSecond * Math.max(0L, cachedNanos) / 1e9, decision.savedReadNanos(), cpuNanos,
                nowNanos);
        boolean keep = decision.keepCaching(sampledReadsPerSecond, sampledReads.upperBoundReadsPerSecond(nowNanos),
                nowNanos);
        sampledReads.restart();
        if (!keep) {
            return directUntilCachingPays(ticker);
        }
        // A pair's count of cached reads goes on across the review, whose CPU is the ticker's, left out.
        windowsPerSecond = decision.paysClearly(sampledReadsPerSecond) ? CLEAR_WINDOWS_PER_SECOND : WINDOWS_PER_SECOND;
        // Caching goes on though no window saw a read: a reader in bursts, between two. Like cache=always, idle until
        // the next read rather than tick through the gap.
        return sampledReadsPerSecond > 0 || idleUntilDemand(ticker);
    }

    @Override
    public CachingDecision decision() {
        return decision;
    }

    /**
     * Sends reads to the direct clock and counts them, slot by slot, until their rate pays for caching; a slot whose
     * reads are far from paying has the ticker rest between looks, and idle until the next read once they stop. Each
     * look's rate also feeds the peak that the sampling windows' upper bound remembers.
     *
     * @return whether to tick again (false once closed)
     */
    private boolean directUntilCachingPays(GatedTicker ticker) {
        ticker.withdraw();
        counting = false;
        directReadHistory.begin(System.nanoTime());
        boolean lookSoon = true;
        while (ticker.running()) {
            long slotStartNanos = System.nanoTime();
            long slotStartReads = ticker.directReads();
            long lookedAtNanos = slotStartNanos;
            long lookedAtReads = slotStartReads;
            while (ticker.running() && lookedAtNanos - slotStartNanos < DirectReadHistory.SLOT_NANOS) {
                long slotLeftNanos = slotStartNanos + DirectReadHistory.SLOT_NANOS - lookedAtNanos;
                ticker.parkUntil(lookedAtNanos, lookSoon ? Math.min(DIRECT_LOOK_NANOS, slotLeftNanos) : slotLeftNanos);
                long nowNanos = System.nanoTime();
                long reads = ticker.directReads();
                double lookReadsPerSecond = (reads - lookedAtReads) * 1e9 / Math.max(1, nowNanos - lookedAtNanos);
                sampledReads.observePeak(lookReadsPerSecond, nowNanos);
                double countedReadsPerSecond = directReadHistory.readsPerSecond(slotStartNanos,
                        reads - slotStartReads, nowNanos);
                if (decision.startCaching(countedReadsPerSecond, nowNanos)) {
                    startWindows(nowNanos);
                    return true;
                }
                lookSoon = decision.paysToStart(lookReadsPerSecond);
                lookedAtNanos = nowNanos;
                lookedAtReads = reads;
            }
            long slotReads = ticker.directReads() - slotStartReads;
            directReadHistory.slotEnded(slotStartNanos, slotReads);
            accountDirect();
            if (!decision.worthWatching(slotReads * 1e9 / Math.max(1, System.nanoTime() - slotStartNanos))) {
                if (!restWhileReadsAreRare(ticker)) {
                    return false;
                }
                // The read that woke the ticker raised the demand; the reads after it need not.
                ticker.withdraw();
                lookSoon = true;
            }
        }
        return false;
    }

    /**
     * Counts the reads that go direct once a rest, while they come too seldom to be worth a closer look, then goes
     * back to the slots; once a rest sees no read, idles the ticker until the next. The demand the last read raised
     * stays raised through the rests, so that no read wakes the ticker meanwhile but those of a burst, which end the
     * rest as soon as its rate is worth a look.
     *
     * @return whether to count on (false once closed)
     */
    private boolean restWhileReadsAreRare(GatedTicker ticker) {
        while (ticker.running()) {
            long restStartNanos = System.nanoTime();
            long restStartReads = ticker.directReads();
            long restedNanos;
            long reads;
            do {
                restedNanos = ticker.restUntil(restStartNanos, REST_NANOS);
                reads = ticker.directReads() - restStartReads;
                // Woken early by readers: a burst, unless the wake counted reads mostly from before the rest.
            } while (restedNanos < REST_NANOS && ticker.running()
                    && !decision.worthWatching(reads * 1e9 / Math.max(1, restedNanos)));
            directReadHistory.slotEnded(restStartNanos, reads);
            accountDirect();
            if (reads == 0) {
                return idleUntilDemand(ticker);
            }
            double restReadsPerSecond = reads * 1e9 / Math.max(1, restedNanos);
            sampledReads.observePeak(restReadsPerSecond, restStartNanos + restedNanos);
            if (decision.worthWatching(restReadsPerSecond)) {
                return true;
            }
        }
        return false;
    }

    /** While every read goes direct, none is saved: what the ticker spent since the last account is the cost. */
    private void accountDirect() {
        decision.savedCpu().account(0.0, decision.directCallNanos(), ThreadCpuTime.currentThreadNanos(),
                System.nanoTime());
    }

    /** Idles the ticker, accounted up to now, with the saving's rate at zero until the next read wakes it. */
    private boolean idleUntilDemand(GatedTicker ticker) {
        counting = false;
        decision.savedCpu().idles();
        return ticker.idleUntilDemand();
    }

    private void startWindows(long nowNanos) {
        sampledReads.restart();
        windowsPerSecond = WINDOWS_PER_SECOND;
        nextWindowNanos = nowNanos + windowGapNanos();
        nextPriceNanos = nowNanos + priceGapNanos();
    }

    /**
     * Starts a pair with its first counted segment: the value stays cached, each read counted. False where the
     * service's CPU time cannot be read, which ends the pricing for good, or no value is published, which puts the
     * pair off.
     */
    private boolean startPair(GatedTicker ticker) {
        long reads = ticker.directReads();
        long cpuNanos = ticker.serviceCpuNanos();
        if (cpuNanos == ServiceCpuTime.UNKNOWN) {
            pricing = false;
            return false;
        }
        if (fixedJvmCpuSinceWallNanos == 0) {
            fixedJvmCpuSinceNanos = ticker.fixedJvmCpuNanos();
            fixedJvmCpuSinceWallNanos = System.nanoTime();
        }
        countedSegments = 0;
        if (!countFrom(ticker, reads, cpuNanos)) {
            nextPriceNanos = System.nanoTime() + priceGapNanos();
            return false;
        }
        return true;
    }

    /** Starts a counted segment from these readings; false, changing nothing, where no value is published. */
    private boolean countFrom(GatedTicker ticker, long reads, long cpuNanos) {
        if (!ticker.countReads()) {
            return false;
        }
        counting = true;
        countingSinceNanos = System.nanoTime();
        countingSinceCpuNanos = cpuNanos;
        countingSinceReads = reads;
        return true;
    }

    /**
     * Ends a counted segment with a direct one, as long, in which every read goes direct, counted the same way; then
     * publishes afresh, and either counts the next segment or, after the last, prices the pair. The direct segment is a
     * sampling window too.
     */
    private void directSegment(GatedTicker ticker) {
        long reads = ticker.directReads();
        long cpuNanos = ticker.serviceCpuNanos();
        long switchNanos = System.nanoTime();
        ticker.withdraw();
        counting = false;
        long elapsedNanos = ticker.parkUntil(switchNanos, switchNanos - countingSinceNanos);
        long endReads = ticker.directReads();
        long endCpuNanos = ticker.serviceCpuNanos();
        long endNanos = switchNanos + elapsedNanos;
        ticker.publish();
        sampledReads.window(endReads - reads, elapsedNanos, endNanos);
        DirectReadPrice price = decision.directReadPrice();
        if (cpuNanos == ServiceCpuTime.UNKNOWN || endCpuNanos == ServiceCpuTime.UNKNOWN) {
            price.dropPair();
        } else {
            price.countedSegment(switchNanos - countingSinceNanos, cpuNanos - countingSinceCpuNanos,
                    reads - countingSinceReads);
            price.directSegment(elapsedNanos, endCpuNanos - cpuNanos, endReads - reads);
            if (++countedSegments < PRICE_SEGMENTS_A_KIND && countFrom(ticker, endReads, endCpuNanos)) {
                return;
            }
            if (countedSegments == PRICE_SEGMENTS_A_KIND) {
                long fixedJvmCpuNanos = ticker.fixedJvmCpuNanos();
                price.fixedJvmSpent(fixedJvmCpuNanos - fixedJvmCpuSinceNanos, endNanos - fixedJvmCpuSinceWallNanos);
                fixedJvmCpuSinceNanos = fixedJvmCpuNanos;
                fixedJvmCpuSinceWallNanos = endNanos;
                price.endPair();
                // Given up for good where it cannot become precise here: the call timed alone stays the price.
                pricing = price.worthPricing(decision.directCallNanos());
            } else {
                price.dropPair();
            }
        }
        pricePairs++;
        nextPriceNanos = endNanos + priceGapNanos();
        nextWindowNanos = endNanos + windowGapNanos();
    }

    /** The time to the next pair: random, around its mean, so that pairs do not keep to a service's own period. */
    private long priceGapNanos() {
        return jittered(pricePairs < PROMPT_PAIRS ? PROMPT_PRICE_INTERVAL_NANOS
                : decision.directReadPrice().precise() ? PRICED_INTERVAL_NANOS : PRICE_INTERVAL_NANOS);
    }

    /**
     * The time to the next window: random, around the mean spacing, so that windows do not keep falling between
     * bursts that recur at a fixed period.
     */
    private long windowGapNanos() {
        return jittered(1_000_000_000L / windowsPerSecond);
    }

    /**
     * Between half and one and a half times the mean, at random. An xorshift generator: no class to load, no
     * allocation.
     */
    private long jittered(long meanNanos) {
        randomBits ^= randomBits << 13;
        randomBits ^= randomBits >>> 7;
        randomBits ^= randomBits << 17;
        double unit = (randomBits >>> 11) * 0x1.0p-53;
        return (long) ((0.5 + unit) * meanNanos);
    }
}
