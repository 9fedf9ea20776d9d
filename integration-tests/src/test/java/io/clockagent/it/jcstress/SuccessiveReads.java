package io.clockagent.it.jcstress;

/**
 * Judges two successive reads of the cached clock by one reader, in a test whose single writer publishes strictly
 * increasing values from a base of its own: such a reader may see the same value again or a newer one, never an
 * older one, and never lose sight of the test's values once it has seen one. Values outside the test's range (the
 * direct clock, or what an earlier test in the same JVM left in the static cell) mean "none of this test's yet".
 * Stateless.
 */
final class SuccessiveReads {

    /** Neither read saw a value of this test. */
    static final int NONE_YET = 0;
    /** The first read saw none, the second one did: the first publish came in between. */
    static final int FIRST_SEEN_BETWEEN = 1;
    static final int SAME = 2;
    static final int NEWER = 3;
    /** A value, then none of this test's: the reader went back to before the first publish. */
    static final int WENT_BACK_TO_NONE = -1;
    static final int OLDER = -2;

    /** Far more values than a test run publishes, and far below any base plus it. */
    private static final long RANGE = 1L << 40;

    private SuccessiveReads() {
    }

    static int judge(long first, long second, long base) {
        boolean firstIsOurs = first - base >= 0 && first - base < RANGE;
        boolean secondIsOurs = second - base >= 0 && second - base < RANGE;
        if (!firstIsOurs) {
            return secondIsOurs ? FIRST_SEEN_BETWEEN : NONE_YET;
        }
        if (!secondIsOurs) {
            return WENT_BACK_TO_NONE;
        }
        return second == first ? SAME : second > first ? NEWER : OLDER;
    }
}
