package io.clockagent.it.seeds;

import io.clockagent.it.support.ForkResult;
import java.util.Arrays;

/**
 * What one forked run of the seeds experiment measured, parsed from the lines {@code SeedsExperimentMain} prints.
 * Immutable.
 */
public final class SeedsRun {

    private final int calls;
    private final double[] singleThreadMillis;
    private final double threadsWallMillis;
    private final double[] threadMillis;

    private SeedsRun(int calls, double[] singleThreadMillis, double threadsWallMillis, double[] threadMillis) {
        this.calls = calls;
        this.singleThreadMillis = singleThreadMillis;
        this.threadsWallMillis = threadsWallMillis;
        this.threadMillis = threadMillis;
    }

    /** Reads the fixture's output; fails the test, showing the whole run, when a line is missing or malformed. */
    static SeedsRun parse(ForkResult fork) {
        try {
            // The sum comes last: without it the fixture did not finish, whatever it printed before.
            fork.stdoutLineStartingWith("sum=");
            String[] single = fork.stdoutLineStartingWith("single ").split(" ");
            int calls = Integer.parseInt(value(single[1], "calls"));
            double[] singleThreadMillis = numbers(value(single[2], "ms"));
            if (fork.stdout().stream().noneMatch(line -> line.startsWith("threads "))) {
                return new SeedsRun(calls, singleThreadMillis, Double.NaN, new double[0]);
            }
            String[] threads = fork.stdoutLineStartingWith("threads ").split(" ");
            return new SeedsRun(calls, singleThreadMillis, Double.parseDouble(value(threads[3], "wall_ms")),
                    numbers(value(threads[4], "thread_ms")));
        } catch (RuntimeException malformed) {
            throw new AssertionError("cannot read the seeds experiment's output: " + malformed + "\n"
                    + fork.describe(), malformed);
        }
    }

    /** The median over this run's timed repeats of the single-thread loop. */
    public double singleThreadMillis() {
        return median(singleThreadMillis);
    }

    /** The cost of one call in the single-thread loop, from {@link #singleThreadMillis()}. */
    public double nanosPerCall() {
        return singleThreadMillis() * 1e6 / calls;
    }

    /** From opening the start gate to the last thread's end; NaN when no threads ran. */
    public double threadsWallMillis() {
        return threadsWallMillis;
    }

    /** The median of the threads' own loop times; NaN when no threads ran. */
    public double threadMedianMillis() {
        return median(threadMillis);
    }

    /** The slowest thread's loop time; NaN when no threads ran. */
    public double threadMaxMillis() {
        return Arrays.stream(threadMillis).max().orElse(Double.NaN);
    }

    /** The median of finite values, or NaN when there are none. */
    public static double median(double[] values) {
        double[] sorted = Arrays.stream(values).filter(Double::isFinite).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String value(String pair, String key) {
        if (!pair.startsWith(key + "=")) {
            throw new IllegalArgumentException("expected " + key + "=..., got '" + pair + "'");
        }
        return pair.substring(key.length() + 1);
    }

    private static double[] numbers(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).mapToDouble(Double::parseDouble).toArray();
    }
}
