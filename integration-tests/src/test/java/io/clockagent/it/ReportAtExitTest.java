package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.support.AgentEntry;
import io.clockagent.it.support.AgentStderr;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.Json;
import io.clockagent.it.support.OnEachJdkThroughBothEntries;
import io.clockagent.it.support.OperableService;
import io.clockagent.it.support.OperableService.MethodSites;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report=summary} and {@code report=FILE} tell, at exit, exactly what the agent found in a service whose
 * clock reads are known: classes, call sites and method references counted apart, and the ticker's record; through
 * either entry (through {@code -agentpath}, the C half counts and rewrites from the first class, the Java half reports).
 */
class ReportAtExitTest {

    private static final String SETTINGS = "tick=1ms wait=park " + OperableService.INCLUDE_SITES
            + " exclude=(none)";
    /** A run this short mostly ends before the ticker's first estimate of the read rate, a second in. */
    private static final Pattern CACHE_SUMMARY = Pattern.compile("clock-agent: report: cache=auto, (no estimate of the"
            + " read rate yet \\(the first comes as something reads the clock\\)|(caching|direct) at the last estimate"
            + " of [\\d,]+ reads per second \\(break-even [\\d,]+: a direct call [\\d.]+ ns alone, (not"
            + " measured|-?[\\d.]+ ns \\(standard error [\\d.]+\\)) in the service over \\d+ pairs of windows, the"
            + " ticker [\\d.]+ ms per second\\), \\d+ switches \\(\\d+ trial stops\\))");
    private static final Pattern SAVED_CPU_SUMMARY = Pattern.compile("clock-agent: report: CPU saved net of the"
            + " ticker: -?[\\d.]+ ms a second over its last interval, -?[\\d.]+ ms in all \\(the cached reads' [\\d.]+"
            + " ms less the ticker's [\\d.]+ ms\\)");
    private static final Pattern TICKER_SUMMARY = Pattern.compile("clock-agent: report: (\\d+) ticks, (\\d+) late,"
            + " max lag (\\d+)\\.(\\d{3}) ms, (\\d+) idle periods, (\\d+) clamped, (\\d+) ticker failures");

    @BeforeAll
    static void theExpectedCountsAreThoseOfTheFixture() {
        OperableService.assertTableMatchesClassFiles();
    }

    @OnEachJdkThroughBothEntries
    void reportSummaryPrintsFourLinesAtExitWithTheCountsOfTheFixture(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) {
        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        OperableService.INCLUDE_SITES + ",report=summary")
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableService.MAIN_CLASS, "sites");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(List.of("sites read"), result.stdout(), result.describe());
        assertEquals(5, result.stderr().size(), "the banner, then four report lines\n" + result.describe());
        assertTrue(AgentStderr.banner(SETTINGS).matcher(result.stderr().get(0)).matches(), result.describe());
        assertEquals("clock-agent: report: " + OperableService.CLASSES_SCANNED + " classes scanned, "
                + OperableService.CLASSES_REWRITTEN + " rewritten, 0 failed; " + OperableService.CALL_SITES
                + " call sites and " + OperableService.METHOD_REFERENCES + " method references",
                result.stderr().get(1), result.describe());
        // The ticker still runs while the report reads its counters one by one, so they are not compared.
        Matcher ticker = TICKER_SUMMARY.matcher(result.stderr().get(2));
        assertTrue(ticker.matches(), result.describe());
        assertEquals("0", ticker.group(6), "nothing steps the clock back here, so nothing is clamped");
        assertEquals("0", ticker.group(7), "the ticker never failed");
        assertTrue(CACHE_SUMMARY.matcher(result.stderr().get(3)).matches(), result.describe());
        assertTrue(SAVED_CPU_SUMMARY.matcher(result.stderr().get(4)).matches(), result.describe());
    }

    @OnEachJdkThroughBothEntries
    void reportFileIsJsonListingEveryRewrittenClassAndMethodWithItsSiteCounts(int featureVersion, AgentEntry entry,
            @TempDir Path runDirectory) throws IOException {
        Path reportFile = runDirectory.resolve("report.json");

        ForkResult result = entry.addTo(new ForkedJvm(Jdks.require(featureVersion), runDirectory),
                        OperableService.INCLUDE_SITES + ",report=" + reportFile)
                .classPath(BuildOutputs.testClasses())
                .runMain(OperableService.MAIN_CLASS, "sites");

        assertEquals(0, result.exitStatus(), result.describe());
        assertEquals(1, result.stderr().size(), "only the banner: a report file prints nothing\n"
                + result.describe());
        assertTrue(Files.isRegularFile(reportFile), "no report written\n" + result.describe());
        String text = Files.readString(reportFile, StandardCharsets.UTF_8);
        Map<String, Object> report = asObject(Json.parse(text), "the report");
        assertEquals(BuildOutputs.agentVersion(), report.get("version"), text);
        assertEquals(SETTINGS, report.get("options"), text);
        assertEquals(Boolean.FALSE, report.get("dryRun"), text);
        assertEquals(OperableService.CLASSES_SCANNED, count(report, "classesScanned"), text);
        assertEquals(OperableService.CLASSES_REWRITTEN, count(report, "classesRewritten"), text);
        assertEquals(0L, count(report, "classesFailed"), text);
        assertEquals(OperableService.CALL_SITES, count(report, "callSites"), text);
        assertEquals(OperableService.METHOD_REFERENCES, count(report, "methodReferences"), text);
        for (String tickerCounter : List.of("ticks", "lateTicks", "maxLagMicros", "idlePeriods")) {
            assertTrue(count(report, tickerCounter) >= 0, tickerCounter + ": " + text);
        }
        assertEquals(0L, count(report, "clamps"), text);
        assertEquals(0L, count(report, "tickerFailures"), text);
        assertEquals(OperableService.SITES_BY_CLASS, sitesByClass(report.get("rewrittenClasses")), text);
    }

    /** Reads {@code rewrittenClasses} into the form of {@link OperableService#SITES_BY_CLASS}, refusing repeats. */
    private static Map<String, Map<String, MethodSites>> sitesByClass(Object rewrittenClasses) {
        Map<String, Map<String, MethodSites>> byClass = new HashMap<>();
        for (Object entry : asList(rewrittenClasses, "rewrittenClasses")) {
            Map<String, Object> rewritten = asObject(entry, "a rewritten class");
            assertEquals(2, rewritten.size(), "a rewritten class has a class and its methods: " + rewritten);
            Map<String, MethodSites> methods = new HashMap<>();
            for (Object methodEntry : asList(rewritten.get("methods"), "methods")) {
                Map<String, Object> method = asObject(methodEntry, "a method");
                assertEquals(3, method.size(), "a method has a name and two counts: " + method);
                MethodSites sites = new MethodSites(Math.toIntExact(count(method, "callSites")),
                        Math.toIntExact(count(method, "methodReferences")));
                assertEquals(null, methods.put((String) method.get("method"), sites), "listed twice: " + method);
            }
            assertEquals(null, byClass.put((String) rewritten.get("class"), methods), "listed twice: " + rewritten);
        }
        return byClass;
    }

    private static long count(Map<String, Object> object, String name) {
        Object value = object.get(name);
        assertTrue(value instanceof BigDecimal, name + " should be a number: " + object);
        return ((BigDecimal) value).longValueExact();
    }

    @SuppressWarnings("unchecked") // Json.parse returns objects as Map<String, Object>, checked by instanceof here.
    private static Map<String, Object> asObject(Object value, String what) {
        assertTrue(value instanceof Map, what + " should be a JSON object: " + value);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked") // Json.parse returns arrays as List<Object>, checked by instanceof here.
    private static List<Object> asList(Object value, String what) {
        assertTrue(value instanceof List, what + " should be a JSON array: " + value);
        return (List<Object>) value;
    }
}
