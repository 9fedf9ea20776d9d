package io.clockagent.bench;

import java.util.Locale;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** What the JMH runners share: the {@code --quick} smoke-test settings and how a score is printed. Stateless. */
final class JmhRuns {

    private JmhRuns() {
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
