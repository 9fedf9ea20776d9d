package io.clockagent.stacks.libraryclocks;

/**
 * Reads the four library clocks, each through a call site of its own as a service calls it, and counts a read that
 * steps back from what the same reader saw of that clock before. One instance per reading thread (a session).
 */
final class LibraryClockReads {

    /** The clocks, by the index {@link ServiceCounts} counts them under. */
    static final String[] CLOCKS = {"mybatisPlusClock", "hutoolClock", "sentinelClock", "dubboClock"};

    private final ServiceCounts counts;
    private final long[] lastMillis = new long[CLOCKS.length];

    LibraryClockReads(ServiceCounts counts) {
        this.counts = counts;
    }

    /** Reads each clock once; returns their sum, which the caller keeps so the reads cannot be optimised away. */
    long readEach() {
        long sum = check(0, com.baomidou.mybatisplus.core.toolkit.SystemClock.now());
        sum += check(1, cn.hutool.core.date.SystemClock.now());
        sum += check(2, com.alibaba.csp.sentinel.util.TimeUtil.currentTimeMillis());
        sum += check(3, org.apache.dubbo.common.utils.TimeUtils.currentTimeMillis());
        return sum;
    }

    /**
     * Records how far each clock's last read was behind {@code System.currentTimeMillis()} read just now: a clock whose
     * thread stopped falls behind without bound.
     */
    void recordLags() {
        long nowMillis = System.currentTimeMillis();
        for (int clock = 0; clock < CLOCKS.length; clock++) {
            counts.clockLagged(clock, nowMillis - lastMillis[clock]);
        }
    }

    private long check(int clock, long millis) {
        if (millis < lastMillis[clock]) {
            counts.clockSteppedBack(clock);
        }
        lastMillis[clock] = millis;
        return millis;
    }
}
