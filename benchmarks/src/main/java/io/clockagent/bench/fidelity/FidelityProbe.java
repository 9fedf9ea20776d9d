package io.clockagent.bench.fidelity;

import io.clockagent.bench.fidelity.rewritten.RewrittenClock;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One row of the fidelity table, run in a JVM of its own by {@code io.clockagent.bench.FidelityComparison}: starts
 * one clock updater (clock-agent's ticker, or one of the usual hand-written ones, or the floor's bare 1 kHz park
 * loop), an optional number of CPU-burning threads, and a sampling reader; then prints one line
 * {@code fidelity-result ...} with the lag histogram and the updater thread's CPU time and context switches over the measured window.
 *
 * <p>Usage: {@code FidelityProbe --clock agent|system-clock|park-loop|bare-park|agent-idle [--burners N]
 * [--warmup-seconds S] [--seconds S]}.
 */
public final class FidelityProbe {

    static final String RESULT_PREFIX = "fidelity-result ";
    /** Samples per burst; between bursts the reader parks, taking about a third of one core, not all of it. */
    static final int SAMPLES_PER_BURST = 1_000;
    static final long PAUSE_BETWEEN_BURSTS_NANOS = 200_000L;
    private static final long TICK_NANOS = 1_000_000L;
    /** Linux keeps 15 characters of a thread's name in /proc/.../comm. */
    private static final int COMM_LENGTH = 15;

    private static final Clock REAL = Clock.systemUTC();

    /*
     * The measured window: the main thread sets `measuring` once the warmup is over and `finished` at its end. The
     * reader swaps histograms at the first burst after `measuring` and stops at the first after `finished`; a burst
     * is about 0.1 ms, so the windows agree to well under a millisecond.
     */
    private static volatile boolean measuring;
    private static volatile boolean finished;

    private FidelityProbe() {
    }

    public static void main(String[] args) throws Exception {
        String clock = null;
        int burners = 0;
        long warmupSeconds = 2;
        long seconds = 10;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--clock" -> clock = args[i + 1];
                case "--burners" -> burners = Integer.parseInt(args[i + 1]);
                case "--warmup-seconds" -> warmupSeconds = Long.parseLong(args[i + 1]);
                case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i] + "'");
            }
        }
        if (clock == null || args.length % 2 != 0) {
            throw new IllegalArgumentException(
                    "usage: --clock agent|system-clock|park-loop|bare-park|agent-idle [--burners N] [--seconds S]");
        }

        Updater updater = Updater.start(clock);
        for (int i = 0; i < burners; i++) {
            Thread burner = new Thread(FidelityProbe::burn, "burner-" + i);
            burner.setDaemon(true);
            burner.start();
        }
        LagHistogram warmup = new LagHistogram();
        LagHistogram measured = new LagHistogram();
        Thread reader = null;
        if (updater.cached != null) {
            reader = new Thread(() -> read(updater.cached, warmup, measured), "fidelity-reader");
            reader.start();
        }

        Thread.sleep(TimeUnit.SECONDS.toMillis(warmupSeconds));
        Thread thread = updater.thread();
        int tid = nativeThreadId(thread.getName());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBeforeNanos = threads.getThreadCpuTime(thread.getId());
        long switchesBefore = contextSwitches(tid);
        long startNanos = System.nanoTime();
        measuring = true;
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        finished = true;
        long windowNanos = System.nanoTime() - startNanos;
        long cpuNanos = threads.getThreadCpuTime(thread.getId()) - cpuBeforeNanos;
        long switches = contextSwitches(tid) - switchesBefore;
        if (reader != null) {
            reader.join();
        }

        double windowSeconds = windowNanos / 1e9;
        System.out.println(RESULT_PREFIX + "thread=" + thread.getName() + " tid=" + tid
                + " kept=" + measured.kept() + " discarded=" + measured.discarded()
                + " exact=" + measured.exact() + " one=" + measured.oneBehind()
                + " twoOrMore=" + measured.twoOrMoreBehind() + " ahead=" + measured.ahead()
                + " maxLagMillis=" + measured.maxLagMillis()
                + " cpuMillisPerSecond=" + format(cpuNanos / 1e6 / windowSeconds)
                + " wakeupsPerSecond=" + format(switches / windowSeconds)
                + " windowSeconds=" + format(windowSeconds));
    }

    /** Real, cached, real: a sample counts only when both real reads agree (see {@link LagHistogram#add}). */
    private static void read(CachedMillis cached, LagHistogram warmup, LagHistogram measured) {
        while (!finished) {
            LagHistogram histogram = measuring ? measured : warmup;
            for (int i = 0; i < SAMPLES_PER_BURST; i++) {
                long before = REAL.millis();
                long cachedMillis = cached.millis();
                long after = REAL.millis();
                histogram.add(before, cachedMillis, after);
            }
            LockSupport.parkNanos(PAUSE_BETWEEN_BURSTS_NANOS);
        }
    }

    private static void burn() {
        long x = 1;
        while (!finished) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            sink = x;
        }
    }

    /** Written by the burners so that the JIT cannot drop their loop as dead code. */
    private static volatile long sink;

    /** The Linux thread id of the one thread of this process whose name (as /proc truncates it) is the given one. */
    static int nativeThreadId(String threadName) throws IOException {
        String comm = threadName.length() > COMM_LENGTH ? threadName.substring(0, COMM_LENGTH) : threadName;
        int found = -1;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).trim();
                } catch (IOException threadEnded) {
                    continue;
                }
                if (name.equals(comm)) {
                    if (found != -1) {
                        throw new IllegalStateException("two threads are named '" + comm + "'");
                    }
                    found = Integer.parseInt(task.getFileName().toString());
                }
            }
        }
        if (found == -1) {
            throw new IllegalStateException("no thread named '" + comm + "' in /proc/self/task");
        }
        return found;
    }

    /** Voluntary plus involuntary context switches of one thread: each park that really sleeps is one. */
    static long contextSwitches(int tid) throws IOException {
        long total = 0;
        for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"))) {
            if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                total += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return total;
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }

    /** A cached clock under test. */
    @FunctionalInterface
    interface CachedMillis {
        long millis();
    }

    /** The thread that keeps a cached clock fresh, and how to read that clock (null: nothing to read). */
    private static final class Updater {
        final CachedMillis cached;
        private final String threadName;

        private Updater(CachedMillis cached, String threadName) {
            this.cached = cached;
            this.threadName = threadName;
        }

        static Updater start(String kind) {
            switch (kind) {
                case "agent":
                    return new Updater(RewrittenClock::millis, "clock-agent-ticker");
                case "agent-idle":
                    // One read loads the rewritten class, which starts the ticker, and makes it tick; then nobody
                    // reads, and the ticker must find that out and go quiet.
                    RewrittenClock.millis();
                    return new Updater(null, "clock-agent-ticker");
                case "system-clock":
                    return SystemClockPattern.start();
                case "park-loop":
                    return ParkLoopPattern.start();
                case "bare-park":
                    return BareParkPattern.start();
                default:
                    throw new IllegalArgumentException("unknown clock '" + kind
                            + "'; valid: agent, agent-idle, system-clock, park-loop, bare-park");
            }
        }

        Thread thread() {
            for (Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.getName().equals(threadName)) {
                    return thread;
                }
            }
            throw new IllegalStateException("no thread named '" + threadName + "' (is the agent on the command line?)");
        }
    }

    /** The usual SystemClock snippet: a one-thread scheduled executor writes an AtomicLong every millisecond. */
    private static final class SystemClockPattern {
        static Updater start() {
            AtomicLong now = new AtomicLong(System.currentTimeMillis());
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "system-clock");
                thread.setDaemon(true);
                return thread;
            });
            executor.scheduleAtFixedRate(() -> now.set(System.currentTimeMillis()), 1, 1, TimeUnit.MILLISECONDS);
            return new Updater(now::get, "system-clock");
        }
    }

    /**
     * The floor: the least a thread can do to keep a cached clock within a millisecond, park to each wall-clock
     * millisecond and store the time it wakes at, with the thread's default timer slack. Its CPU is what 1,000 wake-ups
     * a second cost, its lag histogram how late this host wakes such a thread. Parks to each millisecond of the wall
     * clock, not for a millisecond after each wake-up: the ticker wakes 1,000 times a second, and so must its floor.
     */
    private static final class BareParkPattern {
        private static volatile long millis = REAL.millis();

        static Updater start() {
            startDaemon("bare-park-loop", () -> {
                while (true) {
                    Instant now = REAL.instant();
                    millis = now.toEpochMilli();
                    LockSupport.parkNanos(TICK_NANOS - now.getNano() % TICK_NANOS);
                }
            });
            return new Updater(() -> millis, "bare-park-loop");
        }
    }

    /** Log4j2's updater loop, rewritten here: write a volatile, then park a relative millisecond, forever. */
    private static final class ParkLoopPattern {
        private static volatile long millis = System.currentTimeMillis();

        static Updater start() {
            startDaemon("park-loop-clock", () -> {
                while (true) {
                    millis = System.currentTimeMillis();
                    LockSupport.parkNanos(TICK_NANOS);
                }
            });
            return new Updater(() -> millis, "park-loop-clock");
        }
    }

    private static void startDaemon(String name, Runnable loop) {
        Thread thread = new Thread(loop, name);
        thread.setDaemon(true);
        thread.start();
    }
}
