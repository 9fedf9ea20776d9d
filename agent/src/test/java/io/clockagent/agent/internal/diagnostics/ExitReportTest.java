package io.clockagent.agent.internal.diagnostics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.agent.internal.classfile.SiteCounts;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.log.CapturedLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.ClassFilter;
import io.clockagent.agent.internal.rewrite.ClockClasses;
import io.clockagent.agent.internal.rewrite.RecordedCounters;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitReportTest {

    /** The Java transformer, whose counts are the counters'. */
    private static final ClassFilter JAVA_TRANSFORMER = filter(false, 0, 0, ClockClasses.NONE);

    private final RewriteCounters counters = RecordedCounters.of(2,
            List.of(SiteCounts.rewritten("com.acme.\"Quoted\"", SiteCounts.method("now()J", 2, 0),
                    SiteCounts.method("lambda$run$0()V", 0, 1))),
            List.of("com/acme/Broken"));
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AgentLog log = CapturedLog.into(err);

    @Test
    void theSummaryCountsClassesSitesAndTicks() {
        ExitReport report = new ExitReport(AgentOptions.parse("report=summary,dryRun=true"), counters,
                JAVA_TRANSFORMER, null, log);

        report.run();

        assertArrayEquals(new String[] {
            "clock-agent: report: 2 classes scanned, 1 would be rewritten (dry run), 1 failed; 2 call sites and"
                    + " 1 method references",
            "clock-agent: report: no ticker (dry run)",
        }, err.toString(StandardCharsets.UTF_8).lines().toArray());
    }

    @Test
    void readsOfInstantsLeftDirectGetALineThatNamesTheOption() {
        RecordedCounters.instantReadsLeft(counters, 3);
        RecordedCounters.instantReadsLeft(counters, 4);
        ExitReport report = new ExitReport(AgentOptions.parse("report=summary,dryRun=true"), counters,
                JAVA_TRANSFORMER, null, log);

        report.run();

        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
        assertEquals("clock-agent: report: 7 java.time reads of instants in 2 classes left direct, as the cache would"
                + " change their resolution; cachedInstants=PACKAGES takes them (verbose=true names the classes)",
                lines.get(2), lines.toString());
        assertTrue(report.json().contains("\"instantReadsLeft\": 7,"), report.json());
        assertTrue(report.json().contains("\"classesWithInstantReadsLeft\": 2,"), report.json());
    }

    @Test
    void theJsonFileListsEveryRewrittenMethod(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("report.json");
        new ExitReport(AgentOptions.parse("dryRun=true,report=" + file), counters, JAVA_TRANSFORMER, null, log)
                .run();

        String json = Files.readString(file);

        assertTrue(json.contains("\"classesScanned\": 2,"), json);
        assertTrue(json.contains("\"classesRewritten\": 1,"), json);
        assertTrue(json.contains("\"classesFailed\": 1,"), json);
        assertTrue(json.contains("{\"class\": \"com.acme.\\\"Quoted\\\"\", \"methods\": ["
                + "{\"method\": \"now()J\", \"callSites\": 2, \"methodReferences\": 0}, "
                + "{\"method\": \"lambda$run$0()V\", \"callSites\": 0, \"methodReferences\": 1}]}"), json);
        assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing on stderr for a file report");
    }

    @Test
    void anUnwritableFileIsReportedInOneLine(@TempDir Path directory) {
        Path file = directory.resolve("missing-directory").resolve("report.json");

        new ExitReport(AgentOptions.parse("report=" + file), counters, JAVA_TRANSFORMER, null, log).run();

        String reported = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, reported.lines().count(), reported);
        assertTrue(reported.startsWith("clock-agent: could not write the report to " + file), reported);
    }

    @Test
    void whereTheCHookServesItsCountsAreTheClassesCounts() {
        ExitReport report = new ExitReport(AgentOptions.parse("report=summary"), new RewriteCounters(false, false),
                filter(true, 5, 3, ClockClasses.NONE), null, log);

        report.run();

        assertEquals("clock-agent: report: 5 classes scanned, 3 rewritten, 0 failed; 0 call sites and 0 method"
                + " references", err.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
        assertTrue(report.json().contains("\"classesScanned\": 5,\n  \"classesScannedNatively\": 5,"), report.json());
        assertTrue(report.json().contains("\"classesRewritten\": 3,\n  \"classesRewrittenNatively\": 3,"),
                report.json());
    }

    /** A class filter with counts of its own, as the C hook keeps them. */
    @Test
    void theClockClassesRetiredAndThoseLoadedAfterAllAreListed() {
        AgentOptions options = AgentOptions.parse("report=summary,dryRun=true");
        // The library clocks in LibraryClock.ALL's order: mybatis-plus, Hutool, Sentinel, Dubbo.
        ClockClasses clockClasses = ClockClasses.of(options.packages(), 0b1011L,
                new String[] {null, "com.acme.Legacy", null, null});
        ExitReport report = new ExitReport(options, counters, filter(true, 5, 3, clockClasses), null, log);

        report.run();

        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().collect(Collectors.toList());
        assertEquals("clock-agent: report: clock classes retired (their uses redirected, never loaded):"
                + " com.baomidou.mybatisplus.core.toolkit.SystemClock (mybatis-plus's clock, thread 'System Clock'),"
                + " org.apache.dubbo.common.utils.TimeUtils (Dubbo's clock, thread 'time-millis-ticker-thread');"
                + " loaded after all: cn.hutool.core.date.SystemClock (Hutool's clock, thread 'System Clock') for"
                + " com.acme.Legacy; 2 library clock threads never started", lines.get(lines.size() - 1));
        assertTrue(report.json().contains("\"clockClassesRetired\": [\"com.baomidou.mybatisplus.core.toolkit"
                + ".SystemClock (mybatis-plus's clock, thread 'System Clock')\", \"org.apache.dubbo.common.utils"
                + ".TimeUtils (Dubbo's clock, thread 'time-millis-ticker-thread')\"],\n"
                + "  \"libraryClockThreadsNeverStarted\": 2,\n  \"clockClassesLoaded\":"
                + " [{\"class\": \"cn.hutool.core.date.SystemClock (Hutool's clock, thread 'System Clock')\","
                + " \"loadedFor\": \"com.acme.Legacy\"}],"), report.json());
    }

    private static ClassFilter filter(boolean isNative, long scanned, long rewritten, ClockClasses clockClasses) {
        return new ClassFilter() {
            @Override
            public boolean isNative() {
                return isNative;
            }

            @Override
            public String describe() {
                return isNative ? "native" : "java";
            }

            @Override
            public long classesScannedNatively() {
                return scanned;
            }

            @Override
            public long classesRewrittenNatively() {
                return rewritten;
            }

            @Override
            public ClockClasses clockClasses() {
                return clockClasses;
            }
        };
    }
}
