package io.clockagent.agent.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitReportTest {

    private final RewriteCounters counters = new RewriteCounters(true, true);
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final AgentLog log = new AgentLog(new PrintStream(err, true, StandardCharsets.UTF_8));

    ExitReportTest() {
        counters.scanned();
        counters.scanned();
        counters.rewritten();
        counters.sitesCounted(new RewrittenClass("com.acme.\"Quoted\"", List.of(
                new MethodCallSites("now()J", 2, 0), new MethodCallSites("lambda$run$0()V", 0, 1))));
        counters.failed("com/acme/Broken");
    }

    @Test
    void theSummaryCountsClassesSitesAndTicks() {
        ExitReport report = new ExitReport(AgentOptions.parse("report=summary,dryRun=true"), counters, null, log);

        report.run();

        assertArrayEquals(new String[] {
            "clock-agent: report: 2 classes scanned, 1 would be rewritten (dry run), 1 failed; 2 call sites and"
                    + " 1 method references",
            "clock-agent: report: no ticker (dry run)",
        }, err.toString(StandardCharsets.UTF_8).lines().toArray());
    }

    @Test
    void theJsonFileListsEveryRewrittenMethod(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("report.json");
        new ExitReport(AgentOptions.parse("dryRun=true,report=" + file), counters, null, log).run();

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

        new ExitReport(AgentOptions.parse("report=" + file), counters, null, log).run();

        String reported = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, reported.lines().count(), reported);
        assertTrue(reported.startsWith("clock-agent: could not write the report to " + file), reported);
    }
}
