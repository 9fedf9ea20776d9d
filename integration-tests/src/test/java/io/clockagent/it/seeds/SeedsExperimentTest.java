package io.clockagent.it.seeds;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The experiment of seeds/000 with the real agent jar: 10 million {@code System.currentTimeMillis()} calls in a loop
 * on one thread, then 100 threads released together doing the same, each in forked JVMs with the agent off and on.
 * Prints the table; asserts only the large single-thread effect, with a wide margin, because the machine is shared.
 */
class SeedsExperimentTest {

    /**
     * The seeds' 10 million calls on one thread. The 100 threads make a million calls each rather than 10 million:
     * the same contention, a tenth of the CI time (100 million direct calls take about a second on two cores).
     */
    private static final SeedsExperiment EXPERIMENT = new SeedsExperiment(10_000_000, 5, 100, 1_000_000);
    /** Alternating rounds of (off, on); the assertion compares medians over them. */
    private static final int ROUNDS = 3;
    /**
     * A direct call costs 20-40 ns on a tsc host and a cached read about 1 ns, so the loop runs 20-70 times faster
     * rewritten. Asking for 3x leaves room for a loaded machine, and still fails if the rewrite or the ticker (whose
     * absence sends reads to the direct clock) does not work.
     */
    private static final double MIN_SPEEDUP = 3.0;

    @TempDir
    static Path workDirectory;

    @OnEachJdk
    void theRewrittenSingleThreadLoopIsAtLeastThreeTimesFasterThanTheDirectOne(int featureVersion) {
        Jdk jdk = Jdks.require(featureVersion);

        SeedsComparison comparison = EXPERIMENT.compare(jdk, ROUNDS, Map.of(),
                workDirectory.resolve("jdk-" + featureVersion));
        System.out.print(comparison.table("seeds/000 experiment"));

        assertTrue(comparison.singleThreadSpeedup() >= MIN_SPEEDUP, String.format(Locale.ROOT,
                "the rewritten loop should be at least %.0fx faster than the direct one; it was %.2fx (%s)",
                MIN_SPEEDUP, comparison.singleThreadSpeedup(), comparison));
    }
}
