package io.clockagent.bench.clock;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one clock read. Run as is, {@link #currentTimeMillis()} measures the direct call; run with
 * {@code -jvmArgsAppend -javaagent:clock-agent.jar=include=io.clockagent.bench.clock} the same bytecode is rewritten
 * at load into a read of the agent's cached clock. {@link #nanoTime()} is never rewritten and gives the scale.
 * Stateless: JMH may run it from any number of threads.
 *
 * <p>This package holds nothing else, so the include names exactly the benchmark bodies. JMH's generated harness in
 * the {@code jmh_generated} subpackage falls under the same include, but it reads only {@code System.nanoTime()}
 * and so is left as it is (check with {@code verbose=true}: the agent reports one rewritten class).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(2)
public class ClockReadBenchmark {

    @Benchmark
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}
