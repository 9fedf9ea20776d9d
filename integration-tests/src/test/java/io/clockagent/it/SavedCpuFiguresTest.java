package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.cachepolicy.CachePolicyMain;
import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AttributeLine;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.Json;
import io.clockagent.it.support.LiveJvm;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU that {@code cache=auto} saved, as the MBean and the JSON report give it, in a real JVM through either entry:
 * while a service reads the clock a thousand times a second, which stays on the direct clock, no read is saved and
 * the figure a second is about zero, at most the ticker's own small cost below it; reading flat out, the cached
 * reads save CPU, the figure a second is positive, and the net total is the reads' saving less the ticker's CPU, each
 * read priced at a direct call timed alone or, where its pairs of windows show it higher, at its price in the service.
 * With {@code quiet=true}, which leaves stderr empty and the MBean and the report as they are.
 */
class SavedCpuFiguresTest {

    private static final String INCLUDE = "include=io.clockagent.it.fixtures.cachepolicy";
    /** Past the count of direct reads, which weighs them over at least 1.5 s, and a look or two after it. */
    private static final long DIRECT_MILLIS = 2_500;
    /** Caching starts within about a second of reading flat out; the rest is cached, with reviews a second apart. */
    private static final long FLAT_OUT_MILLIS = 3_500;
    /**
     * What the ticker may cost a second while the reads go direct and it only looks at their count, a few times a
     * second: far below what a tick a millisecond costs (15-25 ms a second), and a made-up saving is above zero.
     */
    private static final double MOST_DIRECT_COST_MILLIS_PER_SECOND = 5.0;
    /** The pairs of windows from which the agent gives a price in the service (its DirectReadPrice.FEWEST_PAIRS). */
    private static final int FEWEST_PAIRS = 5;

    @OnEachJdkThroughBothEntries
    void directReadsSaveNothingAndCachedReadsSaveTheirDirectCallsLessTheTickersCpu(int featureVersion,
            AgentEntry entry, @TempDir Path runDirectory) throws IOException {
        Path reportFile = runDirectory.resolve("report.json");
        Map<String, Double> direct;
        Map<String, Double> cached;
        String describe;
        try (LiveJvm service = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        INCLUDE + ",quiet=true,report=" + reportFile)
                .classPath(BuildOutputs.testClasses())
                .startMain(CachePolicyMain.class.getName())) {
            service.awaitLine("ready");
            service.ask("paced 1000 " + DIRECT_MILLIS, "paced done");
            direct = AttributeLine.ask(service, "saved");
            service.ask("flat-out " + FLAT_OUT_MILLIS, "flat-out done");
            cached = AttributeLine.ask(service, "saved");
            ForkResult end = service.finish();
            describe = "direct: " + direct + "\ncached: " + cached + "\n" + end.describe();
            assertEquals(0, end.exitStatus(), describe);
            assertEquals(List.of(), end.stderr(), "quiet, while the MBean and the report say everything\n" + describe);
        }

        assertEquals(0.0, direct.get("Caching"), describe);
        assertEquals(0.0, direct.get("ReadCpuSavedMillis"), "no read was served from the cache\n" + describe);
        double directPerSecond = direct.get("SavedCpuMillisPerSecond");
        assertTrue(directPerSecond <= 0 && directPerSecond > -MOST_DIRECT_COST_MILLIS_PER_SECOND,
                "about zero, the ticker's looks below it\n" + describe);
        // Read at once, each carried on from the last account at its own rate to a moment microseconds apart.
        assertEquals(-direct.get("TickerCpuMillis"), direct.get("SavedCpuMillis"), 0.01, describe);

        assertEquals(1.0, cached.get("Caching"), describe);
        assertTrue(cached.get("SavedCpuMillisPerSecond") > 0, describe);
        assertTrue(cached.get("ReadCpuSavedMillis") > 0, describe);
        assertTrue(cached.get("TickerCpuMillis") > direct.get("TickerCpuMillis"), "ticking costs CPU\n" + describe);
        double net = cached.get("ReadCpuSavedMillis") - cached.get("TickerCpuMillis");
        assertEquals(net, cached.get("SavedCpuMillis"), 0.01 * Math.abs(net) + 1.0, describe);
        // Caching for seconds prices a direct read in the service, and a cached read saves that price or the call
        // timed alone.
        double pairs = cached.get("DirectReadPricePairs");
        assertTrue(pairs > 0, "pairs of windows while caching\n" + describe);
        assertEquals(pairs >= FEWEST_PAIRS, Double.isFinite(cached.get("DirectReadNanosInService")),
                "a price from the fifth pair on\n" + describe);
        double inServiceNanos = cached.get("DirectReadNanosInService");
        boolean precise = cached.get("DirectReadNanosInServiceError") <= inServiceNanos / 5;
        assertEquals(precise ? inServiceNanos : cached.get("DirectCallNanosMeasured"), cached.get("SavedReadNanos"),
                "the price in the service once known to a fifth, else the call timed alone\n" + describe);

        Object parsed = Json.parse(Files.readString(reportFile, StandardCharsets.UTF_8));
        assertTrue(parsed instanceof Map, "the report is an object: " + parsed);
        Map<?, ?> report = (Map<?, ?>) parsed;
        for (String field : new String[] {"savedCpuMillisPerSecond", "savedCpuMillis", "readCpuSavedMillis",
            "tickerCpuMillis", "directReadPricePairs", "savedReadNanos"}) {
            assertTrue(report.get(field) instanceof BigDecimal, field + " is a number: " + report);
        }
        boolean priced = ((BigDecimal) report.get("directReadPricePairs")).intValue() >= FEWEST_PAIRS;
        for (String field : new String[] {"directReadNanosInService", "directReadNanosInServiceError"}) {
            assertEquals(priced, report.get(field) instanceof BigDecimal, field + " is a number from the fifth pair"
                    + " on, else null: " + report);
            assertTrue(priced || report.containsKey(field) && report.get(field) == null, field + ": " + report);
        }
        assertTrue(((BigDecimal) report.get("readCpuSavedMillis")).doubleValue() >= cached.get("ReadCpuSavedMillis"),
                "the total at exit is at least the one read before\n" + report);
        assertEquals(BigDecimal.ZERO, report.get("libraryClockThreadsNeverStarted"),
                "this service carries no library clock\n" + report);
    }
}
