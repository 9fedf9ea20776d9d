package io.clockagent.demo;

import io.clockagent.demo.load.LoadGenerator;
import io.clockagent.demo.load.LoadResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Runs the quote service under its built-in load generator and reports what it measured, ending with one
 * {@link RunResult} line. Run alone, or with {@code -javaagent:clock-agent.jar=include=io.clockagent.demo}.
 */
public final class Demo {

    /** How long a virtual-thread burst task sleeps between its two clock reads. */
    static final int BURST_SLEEP_MILLIS = 10;
    static final String CACHED_CLOCK_CLASS = "java.lang.ClockAgentCachedClock";
    /** How long a run waits for the agent's MBean once JMX has started. */
    public static final int AGENT_MBEAN_TIMEOUT_SECONDS = 10;

    private Demo() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        DemoOptions options;
        try {
            options = DemoOptions.parse(args);
        } catch (IllegalArgumentException bad) {
            System.err.println("demo: " + bad.getMessage());
            System.exit(2);
            return;
        }
        RunResult result = run(options);
        System.out.println(result.format());
        System.exit("true".equals(result.text("complete")) ? 0 : 1);
    }

    static RunResult run(DemoOptions options) throws IOException, InterruptedException {
        Path accessLog = options.accessLog() != null ? options.accessLog()
                : Files.createTempFile("clock-agent-demo-access-", ".log");
        // Before the first logger exists: the access log goes to a file, never to the console (see seeds/001).
        System.setProperty("org.slf4j.simpleLogger.logFile", accessLog.toString());
        String clockClass = ClockRewriteCheck.clockClass();
        // Only now: the agent defines its cached clock as it rewrites the first class, and ClockRewriteCheck is one.
        boolean agentOn = cachedClockDefined();
        RunResult.Builder result = RunResult.builder()
                .put("jdk", Runtime.version())
                .put("agent", agentOn ? "on" : "off")
                .put("clock_class", clockClass)
                .put("executor", RequestExecutors.virtualThreadsAvailable() ? "virtual" : "pool");
        AgentMBean agent = agentOn ? awaitAgent(result) : null;
        try (QuoteService service = QuoteService.start()) {
            say("quote service on http://127.0.0.1:" + service.address().getPort() + "/quote; requests run on "
                    + service.executorDescription() + "; agent " + (agentOn ? "on" : "off")
                    + "; clock reads go to " + clockClass
                    + "; access log " + accessLog);
            say(String.format(Locale.ROOT, "load: %d connections, %,d warm-up + %,d measured requests, seed %d",
                    options.connections(), options.warmup(), options.requests(), options.seed()));

            LoadGenerator load = new LoadGenerator(service.address(), options.connections(), options.seed(),
                    options.clients(), options.sessions());
            Sample[] start = new Sample[1];
            // Looked for once the warm-up is over: the agent starts its ticker only once the service reads the clock.
            TickerThread[] ticker = new TickerThread[1];
            LoadResult loadResult = load.run(options.warmup(), options.requests(),
                    TimeUnit.SECONDS.toNanos(options.maxSeconds()), () -> {
                        ticker[0] = TickerThread.find();
                        start[0] = Sample.take(service, ticker[0], agent);
                    });
            awaitHandled(service, loadResult.requestsDone());
            Sample end = Sample.take(service, ticker[0], agent);
            describeLoad(loadResult, start[0], end, result);
            if (agent != null) {
                AgentVerdict verdict = agent.verdict();
                say("agent's verdict at the end of the measured requests: " + verdict);
                verdict.putInto(result);
            }

            if (options.burst() > 0 && RequestExecutors.virtualThreadsAvailable()) {
                BurstResult burst = VirtualThreadBurst.run(options.burst(), BURST_SLEEP_MILLIS,
                        TimeUnit.SECONDS.toNanos(options.maxSeconds()), ticker[0]);
                describeBurst(burst, result);
            } else {
                say(options.burst() > 0 ? "burst: skipped, JDK " + Runtime.version().feature()
                        + " has no virtual threads" : "burst: not asked for");
                result.put("burst_tasks", RunResult.NOT_AVAILABLE);
            }
        }
        return result.build();
    }

    private static void describeLoad(LoadResult load, Sample start, Sample end, RunResult.Builder result) {
        say("first response: " + load.firstResponse());
        result.put("complete", load.complete())
                .put("requests", load.requestsDone())
                .put("checksum", String.format(Locale.ROOT, "%016x", load.checksum()))
                .put("non_2xx", load.requestsDone() - load.responsesWithStatusClass(2));
        if (load.failure() != null) {
            say("FAILED: " + load.failure());
            result.put("failure", load.failure());
        }
        if (start == null) {
            return;
        }
        double seconds = load.measuredNanos() / 1e9;
        long clockReads = end.clockReads - start.clockReads;
        long handled = end.requests - start.requests;
        long hits = end.cacheHits - start.cacheHits;
        long misses = end.cacheMisses - start.cacheMisses;
        double clockReadsPerSecond = clockReads / seconds;
        double processCpuMillis = (end.processCpuNanos - start.processCpuNanos) / 1e6;
        String tickerCpuMillis = start.tickerCpuNanos < 0 || end.tickerCpuNanos < 0 ? RunResult.NOT_AVAILABLE
                : String.format(Locale.ROOT, "%.3f", (end.tickerCpuNanos - start.tickerCpuNanos) / 1e6);
        String cacheHitPercent = String.format(Locale.ROOT, "%.2f", 100.0 * hits / Math.max(1, hits + misses));
        result.put("measured_requests", load.measuredRequests())
                .put("measured_s", String.format(Locale.ROOT, "%.4f", seconds))
                .put("rps", String.format(Locale.ROOT, "%.1f", load.requestsPerSecond()))
                .put("p50_us", String.format(Locale.ROOT, "%.1f", load.latencyNanosAt(0.50) / 1e3))
                .put("p99_us", String.format(Locale.ROOT, "%.1f", load.latencyNanosAt(0.99) / 1e3))
                .put("clock_reads", clockReads)
                .put("clock_reads_per_request", String.format(Locale.ROOT, "%.2f", (double) clockReads / handled))
                .put("clock_reads_per_s", String.format(Locale.ROOT, "%.0f", clockReadsPerSecond))
                .put("process_cpu_ms", String.format(Locale.ROOT, "%.1f", processCpuMillis))
                .put("cpu_us_per_request", String.format(Locale.ROOT, "%.2f", processCpuMillis * 1e3 / handled))
                .put("ticker_cpu_ms", tickerCpuMillis)
                .put("agent_saved_cpu_ms_per_s", Double.isNaN(start.agentSavedCpuMillis) ? RunResult.NOT_AVAILABLE
                        : String.format(Locale.ROOT, "%.3f", (end.agentSavedCpuMillis - start.agentSavedCpuMillis)
                                / seconds))
                .put("agent_cached_during_run", start.agentCacheSwitches < 0 ? RunResult.NOT_AVAILABLE
                        : Boolean.toString(end.agentCacheSwitches != start.agentCacheSwitches
                                || start.agentCaching))
                .put("cache_hit_pct", cacheHitPercent)
                .put("throttled", end.throttled)
                .put("deadline_missed", end.deadlinesMissed)
                .put("bad_requests", end.badRequests);
        say(String.format(Locale.ROOT,
                "%,d measured requests in %.3f s: %,.0f req/s, p50 %.3f ms, p99 %.3f ms; %,.0f clock reads/s"
                        + " (%.1f per request); process CPU %.1f us/request; ticker CPU %s; cache hits %s%%;"
                        + " throttled %d, deadlines missed %d; checksum %016x%s",
                load.measuredRequests(), seconds, load.requestsPerSecond(), load.latencyNanosAt(0.50) / 1e6,
                load.latencyNanosAt(0.99) / 1e6, clockReadsPerSecond, (double) clockReads / handled,
                processCpuMillis * 1e3 / handled, withMillis(tickerCpuMillis), cacheHitPercent,
                end.throttled, end.deadlinesMissed, load.checksum(), load.complete() ? "" : " (INCOMPLETE)"));
    }

    private static void describeBurst(BurstResult burst, RunResult.Builder result) {
        String tickerCpuMillis = burst.tickerCpuNanos() < 0 ? RunResult.NOT_AVAILABLE
                : String.format(Locale.ROOT, "%.3f", burst.tickerCpuNanos() / 1e6);
        result.put("burst_tasks", burst.tasks())
                .put("burst_done", burst.tasksDone())
                .put("burst_ms", String.format(Locale.ROOT, "%.1f", burst.wallNanos() / 1e6))
                .put("burst_lag_p50_ms", burst.lagMillisAt(0.50))
                .put("burst_lag_p99_ms", burst.lagMillisAt(0.99))
                .put("burst_lag_max_ms", burst.maxLagMillis())
                .put("burst_stale", burst.staleReads())
                .put("burst_ticker_cpu_ms", tickerCpuMillis)
                .put("burst_ticker_alive", burst.tickerAliveAfter());
        say(String.format(Locale.ROOT,
                "burst: %,d of %,d virtual-thread tasks done in %.1f ms; clock behind the real one by p50 %d ms,"
                        + " p99 %d ms, max %d ms; %d stale reads across a %d ms sleep; ticker CPU %s; ticker %s",
                burst.tasksDone(), burst.tasks(), burst.wallNanos() / 1e6, burst.lagMillisAt(0.50),
                burst.lagMillisAt(0.99), burst.maxLagMillis(), burst.staleReads(), BURST_SLEEP_MILLIS,
                withMillis(tickerCpuMillis), burst.tickerAliveAfter() ? "alive" : "not running"));
    }

    private static String withMillis(String millis) {
        return RunResult.NOT_AVAILABLE.equals(millis) ? millis : millis + " ms";
    }

    /**
     * Starts JMX and waits for the agent's MBean, as a service with a metrics exporter would see the agent arrive.
     * The agent registers it as soon as JMX starts; the bound is for a broken agent.
     */
    private static AgentMBean awaitAgent(RunResult.Builder result) throws InterruptedException {
        long startNanos = System.nanoTime();
        AgentMBean agent = AgentMBean.await(TimeUnit.SECONDS.toNanos(AGENT_MBEAN_TIMEOUT_SECONDS));
        double waitedMillis = (System.nanoTime() - startNanos) / 1e6;
        if (agent == null) {
            say(String.format(Locale.ROOT, "agent: no MBean %s within %d s of JMX's start", AgentMBean.OBJECT_NAME,
                    AGENT_MBEAN_TIMEOUT_SECONDS));
            result.put("agent_mbean", "missing");
        } else {
            say(String.format(Locale.ROOT, "agent: MBean %s registered %.1f ms after JMX's start",
                    AgentMBean.OBJECT_NAME, waitedMillis));
            result.put("agent_mbean", "registered");
        }
        return agent;
    }

    /** Waits, briefly, for the service to finish the requests whose responses were already received. */
    private static void awaitHandled(QuoteService service, long requests) throws InterruptedException {
        long giveUpAtNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (service.stats().requests() < requests && System.nanoTime() - giveUpAtNanos < 0) {
            Thread.sleep(1);
        }
    }

    private static boolean cachedClockDefined() {
        try {
            Class.forName(CACHED_CLOCK_CLASS, false, null);
            return true;
        } catch (ClassNotFoundException notDefined) {
            return false;
        }
    }

    private static void say(String line) {
        System.out.println("demo: " + line);
    }
}
