package org.springframework.clockprobe;

/**
 * A clock read in a package of Spring's: the agent rewrites a framework's packages by default as it does the
 * service's own, which this shows at run time (see {@code ClockCost}).
 */
public final class LibraryClock {

    private LibraryClock() {
    }

    public static long now() {
        return System.currentTimeMillis();
    }
}
