package io.clockagent.it.slowclock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.demo.DemoRun;
import io.clockagent.it.demo.DemoTable;
import io.clockagent.it.seeds.SeedsComparison;
import io.clockagent.it.seeds.SeedsExperiment;
import io.clockagent.it.seeds.SeedsRun;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.OnEachJdk;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host whose clocksource has no vDSO fast path (hpet, acpi_pm, Xen), emulated on this one by preloading
 * {@code libslowclock.so} into the forked JVMs: every clock read there is a system call. First that the emulation
 * bites, then the seeds experiment and the demo with the agent off and on, as on such a host.
 */
class SlowClockTest {

    /** Only the direct cost is wanted here, on one thread: no threads, and no agent. */
    private static final SeedsExperiment DIRECT_COST = new SeedsExperiment(1_000_000, 3, 0, 0);
    /**
     * A tenth of the seeds' calls: at a system call per read, a direct loop of 10 million takes seconds. The effect
     * only grows with the cost of the direct read.
     */
    private static final SeedsExperiment SLOW_HOST_EXPERIMENT = new SeedsExperiment(1_000_000, 5, 100, 100_000);
    /** Alternating rounds, here of (without, with the library) and of (agent off, on); medians over them count. */
    private static final int ROUNDS = 3;
    /**
     * A system call costs several times a vDSO read (here about 130 ns against 20 ns); asking for twice as much
     * leaves room for a loaded machine and still tells a system call from a vDSO read.
     */
    private static final double MIN_SLOWDOWN = 2.0;
    /** As in the seeds experiment on a fast clock; expected here is far more, a system call against about 1 ns. */
    private static final double MIN_SPEEDUP = 3.0;

    /** As in CommandLineTest: only a doctor that hangs. */
    private static final long DOCTOR_PATIENCE_SECONDS = 30;

    @TempDir
    static Path workDirectory;

    @OnEachJdk
    void everyDirectClockReadInAPreloadedJvmIsASystemCallThroughTheLibrary(int featureVersion) {
        Path library = SlowClockLibrary.build();
        Jdk jdk = Jdks.require(featureVersion);
        Path runDirectory = workDirectory.resolve("direct-cost-jdk-" + featureVersion);
        double[] plainNanos = new double[ROUNDS];
        double[] preloadedNanos = new double[ROUNDS];
        long timedCalls = (long) DIRECT_COST.repeats() * DIRECT_COST.calls();

        for (int round = 0; round < ROUNDS; round++) {
            Path countsFile = runDirectory.resolve("counts-" + round + ".txt");
            plainNanos[round] = DIRECT_COST.run(jdk, false, Map.of(), runDirectory).nanosPerCall();
            preloadedNanos[round] = DIRECT_COST.run(jdk, false,
                    SlowClockLibrary.preloadedCountingInto(library, countsFile), runDirectory).nanosPerCall();
            SlowClockCounts counts = SlowClockCounts.readFrom(countsFile);
            assertTrue(counts.wallClockCalls(jdk) >= timedCalls, "every System.currentTimeMillis() should go"
                    + " through the library: " + timedCalls + " timed calls, " + counts);
        }
        double plainMedianNanos = SeedsRun.median(plainNanos);
        double preloadedMedianNanos = SeedsRun.median(preloadedNanos);
        System.out.printf(Locale.ROOT, "slow-clock emulation, JDK %d: a direct System.currentTimeMillis() costs"
                + " %.1f ns without %s and %.1f ns with it (%.1fx; medians of %d alternating forks: without %s ns,"
                + " with %s ns); each preloaded fork's %,d timed calls all went through the library%n", featureVersion,
                plainMedianNanos, library.getFileName(), preloadedMedianNanos, preloadedMedianNanos / plainMedianNanos,
                ROUNDS, nanos(plainNanos), nanos(preloadedNanos), timedCalls);

        assertTrue(preloadedMedianNanos >= MIN_SLOWDOWN * plainMedianNanos, String.format(Locale.ROOT, "a direct"
                + " read should cost at least %.0fx more through a system call: %.1f ns preloaded, %.1f ns not",
                MIN_SLOWDOWN, preloadedMedianNanos, plainMedianNanos));
    }

    @OnEachJdk
    void theRewrittenSingleThreadLoopIsAtLeastThreeTimesFasterOnASlowClockHost(int featureVersion) {
        Path library = SlowClockLibrary.build();
        Jdk jdk = Jdks.require(featureVersion);

        SeedsComparison comparison = SLOW_HOST_EXPERIMENT.compare(jdk, ROUNDS, SlowClockLibrary.preloaded(library),
                workDirectory.resolve("seeds-jdk-" + featureVersion));
        System.out.print(comparison.table("seeds/000 experiment on a slow clock (LD_PRELOAD "
                + library.getFileName() + ")"));

        assertTrue(comparison.singleThreadSpeedup() >= MIN_SPEEDUP, String.format(Locale.ROOT,
                "the rewritten loop should be at least %.0fx faster than the direct one; it was %.2fx (%s)",
                MIN_SPEEDUP, comparison.singleThreadSpeedup(), comparison));
    }

    @OnEachJdk
    void theDemoComputesTheSameResultsWithTheAgentOffAndOnOnASlowClockHost(int featureVersion) {
        Path library = SlowClockLibrary.build();
        Jdk jdk = Jdks.require(featureVersion);
        jdk.requireModule("jdk.httpserver", "the demo's HTTP service");
        Path runDirectory = workDirectory.resolve("demo-jdk-" + featureVersion);
        Map<String, String> slowClock = SlowClockLibrary.preloaded(library);

        DemoRun off = DemoRun.execute(jdk, false, slowClock, runDirectory.resolve("off"));
        DemoRun on = DemoRun.execute(jdk, true, slowClock, runDirectory.resolve("on"));
        System.out.print(DemoTable.render("demo service on a slow clock (LD_PRELOAD " + library.getFileName() + ")",
                jdk, off, on));

        assertEquals("java.lang.System", off.clockClass(), off.fork().describe());
        assertEquals("java.lang.ClockAgentCachedClock", on.clockClass(), on.fork().describe());
        assertEquals(off.checksum(), on.checksum(), "the agent changed what the service computed\n--- off:\n"
                + off.fork().describe() + "\n--- on:\n" + on.fork().describe());
    }

    /** The doctor runs a ticker as the agent does and says how it waits for each tick. */
    @OnEachJdk
    void theTickerFindsTheReadsSlowAndReadsTheWallClockOnceATick(int featureVersion) {
        Path library = SlowClockLibrary.build();
        ForkedJvm doctor = new ForkedJvm(Jdks.require(featureVersion), workDirectory.resolve("doctor-" + featureVersion))
                .timeoutSeconds(DOCTOR_PATIENCE_SECONDS);
        SlowClockLibrary.preloaded(library).forEach(doctor::environment);

        ForkResult result = doctor.runJar(BuildOutputs.agentJar(), "doctor");

        assertEquals(0, result.exitStatus(), result.describe());
        assertTrue(result.stdout().stream().anyMatch(line -> line.startsWith("ticker cost:")
                && line.contains(", one wall-clock read a tick (reads are slow), ")), result.describe());
    }

    private static String nanos(double[] values) {
        return Arrays.stream(values).mapToObj(value -> String.format(Locale.ROOT, "%.1f", value))
                .collect(Collectors.joining(" "));
    }
}
