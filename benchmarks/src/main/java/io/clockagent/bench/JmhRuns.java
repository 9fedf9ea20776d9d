package io.clockagent.bench;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What the JMH runners share: their one option, the {@code --quick} smoke-test settings, the log that takes JMH's own
 * output and how a score is printed. Stateless.
 */
final class JmhRuns {

    private JmhRuns() {
    }

    /**
     * @return whether {@code --quick} was given
     * @throws IllegalArgumentException for any other argument: a runner that takes only this measures the JVM that
     *     runs it, so an option such as {@code --java} that the other runners take would otherwise be silently ignored
     */
    static boolean quick(String[] args) {
        for (String arg : args) {
            if (!arg.equals("--quick")) {
                throw new IllegalArgumentException("unknown argument '" + arg + "'; valid: --quick. The JMH runs fork"
                        + " the JVM that runs this; to measure another JDK, start this with that JDK's java");
            }
        }
        return args.length > 0;
    }

    /**
     * Opens {@code NAME-jdkN.log} beside the benchmarks jar, for JMH's own output, and says where it is: the runners
     * print only their tables.
     */
    static PrintStream openLog(BenchmarkFiles files, String name) throws IOException {
        Path log = files.benchmarkJar().resolveSibling(name + "-jdk" + Runtime.version().feature() + ".log");
        System.out.println("JMH log: " + log);
        return new PrintStream(new FileOutputStream(log.toFile()), true, StandardCharsets.UTF_8);
    }

    /** One short fork: enough to see that everything runs, far too little to measure anything. */
    static void useSmokeTestSettings(ChainedOptionsBuilder options) {
        options.forks(1).warmupIterations(1).warmupTime(TimeValue.milliseconds(200))
                .measurementIterations(2).measurementTime(TimeValue.milliseconds(200));
    }

    /** The score with its 99.9 % error, {@code 0.415 ± 0.053}, or the score alone where JMH gives no error. */
    static String withError(Result<?> result) {
        double error = result.getScoreError();
        return Double.isNaN(error)
                ? format("%.3f", result.getScore())
                : format("%.3f ± %.3f", result.getScore(), error);
    }

    static String format(String pattern, Object... values) {
        return String.format(Locale.ROOT, pattern, values);
    }
}
