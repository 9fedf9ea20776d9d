package com.zaxxer.hikari.clockprobe;

/**
 * A clock read in a package of HikariCP's: the agent rewrites a library's packages by default as it does the
 * service's own, which this shows at run time (see {@code ClockCost}).
 */
public final class LibraryClock {

    private LibraryClock() {
    }

    public static long now() {
        return System.currentTimeMillis();
    }
}
