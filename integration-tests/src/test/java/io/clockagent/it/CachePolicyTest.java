package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.cachepolicy.CachePolicyMain;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code cache=auto}, the default, in a real JVM: a service that reads the clock a thousand times a second, far below
 * what caching needs to pay on any host (a direct call would have to cost 30 us), stays on the direct clock, where
 * reads start, and its ticker never ticks; reading flat out starts caching within about a second, and slowing down
 * stops it again. With {@code cache=always} the same slow reads are cached
 * throughout. Bursts that pay on average stay cached through the pauses between them, where the ticker's sampling
 * windows see nothing, and light ones go direct. The rule itself, at and around its thresholds, is
 * {@code CachingDecisionTest}'s. On JDK 17 and 25, whose native starts differ: the rule is the agent's own Java, the
 * same on every JDK, and a run takes seconds of reading.
 */
class CachePolicyTest {

    private static final String INCLUDE = "include=io.clockagent.it.fixtures.cachepolicy";
    private static final long SLOW_READS_PER_SECOND = 1_000;
    /** Past the count of direct reads, which weighs them over at least 1.5 s. */
    private static final long DECISION_MILLIS = 2_500;
    /**
     * Slow again after reading flat out: the windows cannot tell slow reads from pauses between bursts as intense as
     * the flat-out reads, so the stop is a trial, at the first decision after the flat-out reads, a second at most,
     * with the count of direct reads after it.
     */
    private static final long SLOW_AGAIN_MILLIS = 4_500;
    private static final Pattern MBEAN = Pattern.compile("mbean caching=(true|false) ticks=(\\d+) switches=(\\d+)"
            + " trials=(\\d+)");
    /**
     * Bursts of 20 million reads, flat out, with 300 ms pauses: about 30 million reads a second on average, above
     * break-even on any host, though the ticker's sampling windows mostly fall between the bursts.
     */
    private static final String HEAVY_BURSTS = "bursts 20000000 300 12";
    /** Bursts of 1,000 reads every half second: far below break-even, however fast each burst. */
    private static final String LIGHT_BURSTS = "bursts 1000 500 6";

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void slowReadsGoDirectAndTheTickerRestsUntilTheRateRisesAndFallsAgain(int featureVersion,
            @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm service = start(jdk, runDirectory, INCLUDE)) {
            service.ask("paced " + SLOW_READS_PER_SECOND + " " + DECISION_MILLIS, "paced done");
            long[] slow = mbean(service);
            service.ask("paced " + SLOW_READS_PER_SECOND + " 1000", "paced done");
            long[] slowLater = mbean(service);
            service.ask("flat-out " + DECISION_MILLIS, "flat-out done");
            long[] fast = mbean(service);
            service.ask("paced " + SLOW_READS_PER_SECOND + " " + SLOW_AGAIN_MILLIS, "paced done");
            long[] slowAgain = mbean(service);
            String describe = service.describe();

            assertEquals(0, slow[0], "slow reads: direct\n" + describe);
            assertEquals(0, slow[2], "never cached: reads start on the direct clock\n" + describe);
            assertEquals(slow[1], slowLater[1], "no tick while the reads go direct\n" + describe);
            assertEquals(1, fast[0], "reads flat out: cached\n" + describe);
            assertTrue(fast[1] > slowLater[1], "ticking again\n" + describe);
            assertEquals(0, slowAgain[0], "slow again: direct\n" + describe);
            assertEquals(2, slowAgain[2], "on, off\n" + describe);
        }
    }

    /**
     * Light bursts go direct. Heavy ones are cached: after a first series, in which the JIT compiles the loop and the
     * rule learns the bursts, at most one burst of the next twelve runs on the direct clock for long (a trial stop,
     * 4 s after caching restarted, sends at most part of one burst direct; the sampling of before this rule sent about
     * one burst in four). The state at one moment would prove nothing: a trial may have just stopped caching.
     */
    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void heavyBurstsAreCachedThroughTheirPausesAndLightOnesGoDirect(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm service = start(jdk, runDirectory, INCLUDE)) {
            service.ask(LIGHT_BURSTS, "bursts done");
            long[] light = mbean(service);
            service.ask(HEAVY_BURSTS, "bursts done");
            long[] heavy = mbean(service);
            String later = service.ask(HEAVY_BURSTS, "bursts done");
            long[] heavyLater = mbean(service);
            String describe = service.describe();

            assertEquals(0, light[0], "light bursts: direct\n" + describe);
            assertEquals(0, light[2], "never cached: reads start on the direct clock\n" + describe);
            assertTrue(heavy[2] >= 1, "heavy bursts: caching started\n" + describe);
            assertTrue(Integer.parseInt(later.substring(later.indexOf("slow=") + "slow=".length())) <= 1,
                    "at most one of twelve heavy bursts on the direct clock\n" + describe);
            assertTrue(heavyLater[3] <= 2, "trials of the direct clock 4 s, then 8 s after caching restarted\n"
                    + describe);
        }
    }

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void withCacheAlwaysTheSameSlowReadsAreCachedThroughout(int featureVersion, @TempDir Path runDirectory) {
        Jdk jdk = Jdks.require(featureVersion);
        try (LiveJvm service = start(jdk, runDirectory, INCLUDE + ",cache=always")) {
            service.ask("paced " + SLOW_READS_PER_SECOND + " " + DECISION_MILLIS, "paced done");
            long[] slow = mbean(service);
            service.ask("paced " + SLOW_READS_PER_SECOND + " 1000", "paced done");
            long[] slowLater = mbean(service);
            String describe = service.describe();

            assertEquals(1, slow[0], describe);
            assertTrue(slowLater[1] > slow[1], "ticking on\n" + describe);
            assertEquals(0, slowLater[2], describe);
        }
    }

    private static LiveJvm start(Jdk jdk, Path runDirectory, String options) {
        LiveJvm service = new ForkedJvm(jdk, runDirectory)
                .javaagent(BuildOutputs.agentJar(), options)
                .classPath(BuildOutputs.testClasses())
                .startMain(CachePolicyMain.class.getName());
        service.awaitLine("ready");
        return service;
    }

    /** {@code [caching 1 or 0, ticks, switches, trial stops]}. */
    private static long[] mbean(LiveJvm service) {
        String line = service.ask("mbean", "mbean ");
        Matcher mbean = MBEAN.matcher(line);
        assertTrue(mbean.matches(), line + "\n" + service.describe());
        return new long[] {Boolean.parseBoolean(mbean.group(1)) ? 1 : 0, Long.parseLong(mbean.group(2)),
            Long.parseLong(mbean.group(3)), Long.parseLong(mbean.group(4))};
    }
}
