package io.clockagent.bench;

import io.clockagent.bench.peers.PeerClockBenchmark;
import io.clockagent.bench.peers.rewritten.RewrittenClock;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link PeerClockBenchmark} with 1 and 2 threads, every fork with
 * {@code -javaagent:clock-agent.jar=include=io.clockagent.bench.peers.rewritten}, and prints one read of each clock
 * side by side with a met/MISSED line: clock-agent's read must be no slower than any peer's. Forks, warmup and
 * measurement come from the benchmark's annotations; JMH's log goes to {@code target/jmh-peers-jdkNN.log}.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.clockagent.bench.PeerReadComparison [--quick]}; the forks run on the
 * JVM that runs this class. {@code --quick} is a smoke test of the wiring whose figures mean nothing.
 */
public final class PeerReadComparison {

    private static final int[] THREAD_COUNTS = {1, 2};
    private static final String OURS = "clockAgent";
    private static final Map<String, String> READS = new LinkedHashMap<>();

    static {
        READS.put(OURS, "clock-agent: rewritten `System.currentTimeMillis()`");
        READS.put("direct", "direct `System.currentTimeMillis()`");
        READS.put("systemClock", "`SystemClock` snippet: `AtomicLong.get()`");
        READS.put("log4jCoarseCachedClock", "Log4j2 `CoarseCachedClock`");
        READS.put("log4jCachedClock", "Log4j2 `CachedClock`");
        READS.put("agronaCachedEpochClock", "Agrona `CachedEpochClock`");
    }

    private PeerReadComparison() {
    }

    public static void main(String[] args) throws IOException, RunnerException {
        boolean quick = JmhRuns.quick(args);
        BenchmarkFiles files = BenchmarkFiles.locate();
        String agentArgument = "-javaagent:" + files.agentJar() + "=include=" + RewrittenClock.class.getPackageName();
        Map<String, Result<?>> scores = new LinkedHashMap<>();
        try (PrintStream logStream = JmhRuns.openLog(files, "jmh-peers")) {
            System.out.println("every fork: " + agentArgument);
            System.out.println("before: " + Machine.loadAverage());
            OutputFormat jmhOutput = OutputFormatFactory.createFormatInstance(logStream, VerboseMode.NORMAL);
            for (int threads : THREAD_COUNTS) {
                System.out.println("running " + READS.size() + " reads, " + threads + " thread(s) ...");
                ChainedOptionsBuilder options = new OptionsBuilder()
                        .include("^" + Pattern.quote(PeerClockBenchmark.class.getName()) + "\\.")
                        .threads(threads)
                        .jvmArgsAppend(agentArgument);
                if (quick) {
                    JmhRuns.useSmokeTestSettings(options);
                }
                for (RunResult result : new Runner(options.build(), jmhOutput).run()) {
                    String label = result.getParams().getBenchmark();
                    String method = label.substring(label.lastIndexOf('.') + 1);
                    scores.put(threads + "/" + method, result.getPrimaryResult());
                }
            }
        }
        System.out.println("after: " + Machine.loadAverage());
        System.out.println();
        System.out.println(Machine.describe());
        if (quick) {
            System.out.println("--quick: a smoke test; these figures are not measurements");
        }
        System.out.println();
        System.out.println("| read | 1 thread ns/op | 2 threads ns/op |");
        System.out.println("| --- | ---: | ---: |");
        for (Map.Entry<String, String> read : READS.entrySet()) {
            StringBuilder line = new StringBuilder("| ").append(read.getValue());
            for (int threads : THREAD_COUNTS) {
                line.append(" | ").append(JmhRuns.withError(scores.get(threads + "/" + read.getKey())));
            }
            System.out.println(line.append(" |"));
        }
        System.out.println();
        System.out.println("target: clock-agent's read is no slower than any other read");
        for (int threads : THREAD_COUNTS) {
            Result<?> ours = scores.get(threads + "/" + OURS);
            StringBuilder slower = new StringBuilder();
            for (String method : READS.keySet()) {
                Result<?> peer = scores.get(threads + "/" + method);
                if (!method.equals(OURS) && peer.getScore() < ours.getScore()) {
                    slower.append(slower.length() == 0 ? "" : ", ").append(method)
                            .append(JmhRuns.format(" (%.3f ns, within the error: %s)", peer.getScore(),
                                    overlaps(ours, peer) ? "yes" : "no"));
                }
            }
            System.out.println("  " + threads + " thread(s): clock-agent "
                    + JmhRuns.format("%.3f", ours.getScore()) + " ns: "
                    + (slower.length() == 0 ? "met" : "MISSED, faster: " + slower));
        }
    }

    private static boolean overlaps(Result<?> a, Result<?> b) {
        double errorA = Double.isNaN(a.getScoreError()) ? 0 : a.getScoreError();
        double errorB = Double.isNaN(b.getScoreError()) ? 0 : b.getScoreError();
        return Math.abs(a.getScore() - b.getScore()) <= errorA + errorB;
    }


}
