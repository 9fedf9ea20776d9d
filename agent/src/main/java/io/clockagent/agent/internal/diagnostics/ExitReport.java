package io.clockagent.agent.internal.diagnostics;

import io.clockagent.agent.internal.caching.CachingDecision;
import io.clockagent.agent.internal.caching.DirectReadPrice;
import io.clockagent.agent.internal.caching.SavedCpu;
import io.clockagent.agent.internal.classfile.MethodCallSites;
import io.clockagent.agent.internal.classfile.RewrittenClass;
import io.clockagent.agent.internal.clock.Ticker;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.options.AgentOptions;
import io.clockagent.agent.internal.rewrite.ClassFilter;
import io.clockagent.agent.internal.rewrite.ClockClasses;
import io.clockagent.agent.internal.rewrite.RewriteCounters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the agent did, told at JVM exit: as two stderr lines for {@code report=summary}, or as a JSON file, with the
 * list of rewritten classes and methods, for {@code report=FILE}. Runs once, in a shutdown hook.
 */
public final class ExitReport implements Runnable {

    private final AgentOptions options;
    private final RewriteCounters counters;
    private final ClassFilter filter;
    private final Ticker ticker;
    private final AgentLog log;

    /** @param ticker null in a dry run, which starts none */
    public ExitReport(AgentOptions options, RewriteCounters counters, ClassFilter filter, Ticker ticker,
            AgentLog log) {
        this.options = options;
        this.counters = counters;
        this.filter = filter;
        this.ticker = ticker;
        this.log = log;
    }

    @Override
    public void run() {
        if (options.reportSummary()) {
            for (String line : summaryLines()) {
                log.line(line);
            }
        }
        if (options.reportFile() != null) {
            try {
                Files.writeString(Path.of(options.reportFile()), json(), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException unwritable) {
                log.line("could not write the report to " + options.reportFile() + ": " + unwritable);
            }
        }
    }

    /** By whichever filter served: the other counted none. */
    private long classesScanned() {
        return counters.classesScanned() + filter.classesScannedNatively();
    }

    private long classesRewritten() {
        return counters.classesRewritten() + filter.classesRewrittenNatively();
    }

    String[] summaryLines() {
        String classes = "report: " + classesScanned() + " classes scanned, " + classesRewritten()
                + (options.dryRun() ? " would be rewritten (dry run), " : " rewritten, ") + counters.classesFailed()
                + " failed; " + counters.callSites() + " call sites and " + counters.methodReferences()
                + " method references";
        String ticks = ticker == null ? "report: no ticker (dry run)"
                : "report: " + ticker.ticks() + " ticks, " + ticker.lateTicks() + " late, max lag "
                        + formatMillis(ticker.maxLagNanos()) + " ms, " + ticker.idlePeriods() + " idle periods, "
                        + ticker.clamps() + " clamped, " + ticker.failures() + " ticker failures";
        List<String> lines = new ArrayList<>(List.of(classes, ticks));
        CachingDecision decision = ticker == null ? null : ticker.cachingDecision();
        if (decision != null) {
            lines.add(Double.isNaN(decision.readsPerSecond())
                    ? "report: cache=auto, no estimate of the read rate yet (the first comes as something reads the"
                            + " clock)"
                    : String.format(Locale.ROOT, "report: cache=auto, %s at the last estimate of %,.0f reads per"
                            + " second (break-even %,.0f: a direct call %.1f ns alone, %s in the service over %d"
                            + " pairs of windows, the ticker %.2f ms per second), %d switches (%d trial stops)",
                            decision.caching() ? "caching" : "direct", decision.readsPerSecond(),
                            decision.breakEvenReadsPerSecond(), decision.directCallNanos(),
                            inServiceNanos(decision.directReadPrice()), decision.directReadPrice().pairs(),
                            decision.tickerCpuNanosPerSecond() / 1e6, decision.switches(), decision.trialStops()));
            lines.add(savedCpuLine(decision.savedCpu(), System.nanoTime()));
        }
        ClockClasses clockClasses = filter.clockClasses();
        if (!clockClasses.retired().isEmpty() || !clockClasses.loaded().isEmpty()) {
            List<String> loaded = new ArrayList<>();
            clockClasses.loaded().forEach((clockClass, loadedFor) -> loaded.add(clockClass + " for " + loadedFor));
            lines.add("report: clock classes retired (their uses redirected, never loaded): "
                    + (clockClasses.retired().isEmpty() ? "none" : String.join(", ", clockClasses.retired()))
                    + "; loaded after all: " + (loaded.isEmpty() ? "none" : String.join(", ", loaded)) + "; "
                    + clockClasses.libraryClocksRetired() + " library clock threads never started");
        }
        if (counters.instantReadsLeft() > 0) {
            lines.add("report: " + counters.instantReadsLeft() + " java.time reads of instants in "
                    + counters.classesWithInstantReadsLeft() + " classes left direct, as the cache would change their"
                    + " resolution; cachedInstants=PACKAGES takes them (verbose=true names the classes)");
        }
        return lines.toArray(new String[0]);
    }

    private static String inServiceNanos(DirectReadPrice price) {
        return Double.isNaN(price.inServiceNanos()) ? "not measured"
                : String.format(Locale.ROOT, "%.1f ns (standard error %.1f)", price.inServiceNanos(),
                        price.standardErrorNanos());
    }

    static String savedCpuLine(SavedCpu savedCpu, long nowNanos) {
        return Double.isNaN(savedCpu.savedCpuNanosPerSecond())
                ? "report: CPU saved: not known, as the ticker's CPU time cannot be read here"
                : String.format(Locale.ROOT, "report: CPU saved net of the ticker: %.3f ms a second over its last"
                        + " interval, %.1f ms in all (the cached reads' %.1f ms less the ticker's %.1f ms)",
                        savedCpu.savedCpuNanosPerSecond() / 1e6, savedCpu.savedCpuNanos(nowNanos) / 1e6,
                        savedCpu.readCpuSavedNanos(nowNanos) / 1e6, savedCpu.tickerCpuNanos(nowNanos) / 1e6);
    }

    String json() {
        StringBuilder json = new StringBuilder(4096);
        json.append("{\n");
        field(json, "version", quote(AgentVersion.read()));
        field(json, "options", quote(options.describe()));
        field(json, "dryRun", Boolean.toString(options.dryRun()));
        field(json, "classesScanned", Long.toString(classesScanned()));
        field(json, "classesScannedNatively", Long.toString(filter.classesScannedNatively()));
        field(json, "classesRewritten", Long.toString(classesRewritten()));
        field(json, "classesRewrittenNatively", Long.toString(filter.classesRewrittenNatively()));
        field(json, "classesFailed", Long.toString(counters.classesFailed()));
        field(json, "callSites", Long.toString(counters.callSites()));
        field(json, "methodReferences", Long.toString(counters.methodReferences()));
        field(json, "instantReadsLeft", Long.toString(counters.instantReadsLeft()));
        field(json, "classesWithInstantReadsLeft", Long.toString(counters.classesWithInstantReadsLeft()));
        if (ticker != null) {
            field(json, "ticks", Long.toString(ticker.ticks()));
            field(json, "lateTicks", Long.toString(ticker.lateTicks()));
            field(json, "maxLagMicros", Long.toString(ticker.maxLagNanos() / 1_000L));
            field(json, "idlePeriods", Long.toString(ticker.idlePeriods()));
            field(json, "clamps", Long.toString(ticker.clamps()));
            field(json, "tickerFailures", Long.toString(ticker.failures()));
            CachingDecision decision = ticker.cachingDecision();
            field(json, "cache", quote(options.cachePolicy().optionValue()));
            if (decision != null) {
                field(json, "caching", Boolean.toString(decision.caching()));
                field(json, "readsPerSecond", number(decision.readsPerSecond()));
                field(json, "breakEvenReadsPerSecond", number(decision.breakEvenReadsPerSecond()));
                field(json, "directCallNanos", number(decision.directCallNanos()));
                field(json, "directReadNanosInService", number(decision.directReadPrice().inServiceNanos()));
                field(json, "directReadNanosInServiceError", number(decision.directReadPrice().standardErrorNanos()));
                field(json, "directReadPricePairs", Long.toString(decision.directReadPrice().pairs()));
                field(json, "savedReadNanos", number(decision.savedReadNanos()));
                field(json, "tickerCpuMillisPerSecond", number(decision.tickerCpuNanosPerSecond() / 1e6));
                field(json, "cacheSwitches", Long.toString(decision.switches()));
                field(json, "cacheTrialStops", Long.toString(decision.trialStops()));
                SavedCpu savedCpu = decision.savedCpu();
                long nowNanos = System.nanoTime();
                field(json, "savedCpuMillisPerSecond", number(savedCpu.savedCpuNanosPerSecond() / 1e6));
                field(json, "savedCpuMillis", number(savedCpu.savedCpuNanos(nowNanos) / 1e6));
                field(json, "readCpuSavedMillis", number(savedCpu.readCpuSavedNanos(nowNanos) / 1e6));
                field(json, "tickerCpuMillis", number(savedCpu.tickerCpuNanos(nowNanos) / 1e6));
            }
        }
        ClockClasses clockClasses = filter.clockClasses();
        json.append("  \"clockClassesRetired\": [");
        String retiredSeparator = "";
        for (String retired : clockClasses.retired()) {
            json.append(retiredSeparator).append(quote(retired));
            retiredSeparator = ", ";
        }
        json.append("],\n  \"libraryClockThreadsNeverStarted\": ").append(clockClasses.libraryClocksRetired());
        json.append(",\n  \"clockClassesLoaded\": [");
        String loadedSeparator = "";
        for (Map.Entry<String, String> loaded : clockClasses.loaded().entrySet()) {
            json.append(loadedSeparator).append("{\"class\": ").append(quote(loaded.getKey()))
                    .append(", \"loadedFor\": ").append(quote(loaded.getValue())).append('}');
            loadedSeparator = ", ";
        }
        json.append("],\n");
        json.append("  \"rewrittenClasses\": [");
        String separator = "\n";
        for (RewrittenClass rewritten : counters.rewrittenClasses()) {
            json.append(separator).append("    {\"class\": ").append(quote(rewritten.className()))
                    .append(", \"methods\": [");
            String methodSeparator = "";
            for (MethodCallSites method : rewritten.methods()) {
                json.append(methodSeparator).append("{\"method\": ").append(quote(method.method()))
                        .append(", \"callSites\": ").append(method.callSites())
                        .append(", \"methodReferences\": ").append(method.methodReferences()).append('}');
                methodSeparator = ", ";
            }
            json.append("]}");
            separator = ",\n";
        }
        json.append("\n  ]\n}\n");
        return json.toString();
    }

    private static void field(StringBuilder json, String name, String value) {
        json.append("  ").append(quote(name)).append(": ").append(value).append(",\n");
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < 0x20) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('"').toString();
    }

    /** JSON has no NaN: a figure not yet measured is null. */
    private static String number(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "null" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String formatMillis(long nanos) {
        return String.format("%.3f", nanos / 1e6);
    }
}
