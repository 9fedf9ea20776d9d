package io.clockagent.stacks.libraryclocks;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/** What the service has done, for the {@code stats} command; updated by every session thread. */
final class ServiceCounts {

    final AtomicLong sentinelEntries = new AtomicLong();
    final AtomicLong sentinelBlocked = new AtomicLong();
    /** Reads of each library clock by the sessions themselves, the generators' own reads not included. */
    final AtomicLong clockReads = new AtomicLong();
    private final AtomicLongArray clockStepsBack = new AtomicLongArray(LibraryClockReads.CLOCKS.length);
    private final AtomicLongArray clockMaxLagMillis = new AtomicLongArray(LibraryClockReads.CLOCKS.length);
    private final List<CheckedIds> generators;

    ServiceCounts(List<CheckedIds> generators) {
        this.generators = generators;
    }

    void clockSteppedBack(int clock) {
        clockStepsBack.incrementAndGet(clock);
    }

    void clockLagged(int clock, long lagMillis) {
        clockMaxLagMillis.accumulateAndGet(clock, lagMillis, Math::max);
    }

    /**
     * {@code KEY=VALUE} pairs: per generator its ids, those not above the one before and its refusals for a clock that
     * moved backwards; Sentinel's entries and blocks; the sessions' clock reads and, per library clock, their steps
     * back and the most it was seen behind {@code System.currentTimeMillis()} (by {@code ids} requests).
     */
    String describe() {
        StringBuilder counts = new StringBuilder();
        for (CheckedIds generator : generators) {
            counts.append(generator.describe()).append(' ');
        }
        counts.append("sentinelEntries=").append(sentinelEntries.get()).append(" sentinelBlocked=")
                .append(sentinelBlocked.get()).append(" clockReads=").append(clockReads.get());
        for (int clock = 0; clock < LibraryClockReads.CLOCKS.length; clock++) {
            String name = LibraryClockReads.CLOCKS[clock];
            counts.append(' ').append(name).append("StepsBack=").append(clockStepsBack.get(clock)).append(' ')
                    .append(name).append("MaxLagMillis=").append(clockMaxLagMillis.get(clock));
        }
        return counts.toString();
    }
}
