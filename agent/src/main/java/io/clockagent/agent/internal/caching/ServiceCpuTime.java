package io.clockagent.agent.internal.caching;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The CPU time the service's own threads have spent, as a running total for {@link DirectReadPrice}: every thread of
 * the process but the JVM's own (its collectors, compilers and VM threads, told by the names HotSpot gives them) and
 * the ticker, each read from its kernel CPU clock through the agent's native library. Used by the ticker thread only.
 *
 * <p>Why not the process clock: it sums the threads that run on other CPUs only as of the scheduler's last tick, and
 * it carries the collector's and the compilers' work, which has nothing to do with clock reads yet lands in one window
 * of a pair and not the other. On the emulated slow clock (2026-12-02, the demo saturating both cores) the price of a
 * pair of 25 ms windows spread with a standard deviation of 1,631 ns over the first 3 s by the process clock and 608
 * by the service's threads, and of 250 against 172 after 8 s.
 *
 * <p>Threads are listed from {@code /proc/self/task}, again where the last listing is older than
 * {@value #LISTING_MOST_AGE_NANOS} ns; a thread counts from its first reading on, and what it spent after its last
 * reading before it ended is lost. Where the library did not bind the native (the Java start, a platform the jar
 * carries no library for) or {@code /proc} cannot be listed, unknown.
 */
public final class ServiceCpuTime {

    public static final long UNKNOWN = -1L;
    /** How old a listing of the threads may grow before a reading lists them again: one serves a pair of windows. */
    static final long LISTING_MOST_AGE_NANOS = 100_000_000L;
    /**
     * The beginnings of the names HotSpot gives its own threads, JDK 11 to 25, as the kernel keeps them (15
     * characters): the VM thread and its periodic task, the collectors' (G1's, Parallel's, ZGC's, Shenandoah's) and
     * the compilers'. A JVM thread these miss only adds its work to the noise of the price, not to the price.
     */
    static final String[] JVM_THREAD_NAME_PREFIXES = {"VM ", "GC Thread#", "G1 ", "C1 CompilerThre",
        "C2 CompilerThre", "JVMCI", "Sweeper thread", "Service Thread", "Monitor Deflati", "StrDedup", "ZDirector",
        "ZDriver", "ZStat", "ZUnmapper", "ZWorker", "ZRuntime", "Shenandoah"};
    /** The kernel's id for the calling thread's own clock: the ticker, whose own time is left out. */
    private static final int CALLING_THREAD = 0;

    /** Reads the CPU time of the first {@code count} threads named into {@code nanos}: -1 for a thread gone. */
    interface ThreadClocks {
        void read(int[] tids, int count, long[] nanos);
    }

    private final Path taskDirectory;
    private final ThreadClocks clocks;
    private boolean known = true;
    private long totalNanos;
    /*
     * The threads read, the calling thread first, each with its last reading; and the names of the last listing's
     * threads, sorted by id, each told apart as the JVM's or the service's.
     */
    private int[] tids = {CALLING_THREAD};
    private long[] lastNanos = {UNKNOWN};
    private int[] listedTids = new int[0];
    private boolean[] listedJvm = new boolean[0];
    private long listedAtNanos;
    private boolean listed;

    /** Over this process's threads, through the library's native; made on the ticker thread, at its first pair. */
    public ServiceCpuTime() {
        this(Path.of("/proc/self/task"), ServiceCpuTime::threadCpuNanos0);
    }

    /** Over the threads a directory lists as {@code /proc/self/task} does, read through {@code clocks}. */
    ServiceCpuTime(Path taskDirectory, ThreadClocks clocks) {
        this.taskDirectory = taskDirectory;
        this.clocks = clocks;
    }

    /** The CPU time the service's threads have spent since the first reading, in nanoseconds, or {@link #UNKNOWN}. */
    public long nanos() {
        if (!known) {
            return UNKNOWN;
        }
        long nowNanos = System.nanoTime();
        int[] readTids = tids;
        if (!listed || nowNanos - listedAtNanos > LISTING_MOST_AGE_NANOS) {
            readTids = listServiceThreads();
            if (readTids == null) {
                known = false;
                return UNKNOWN;
            }
            listed = true;
            listedAtNanos = nowNanos;
        }
        long[] readNanos = new long[readTids.length];
        try {
            clocks.read(readTids, readTids.length, readNanos);
        } catch (UnsatisfiedLinkError | RuntimeException unreadable) {
            known = false;
            return UNKNOWN;
        }
        if (readNanos[0] < 0) {
            known = false;
            return UNKNOWN;
        }
        // The calling thread is listed among the rest too: its own reading takes its share back out.
        totalNanos -= spentSince(CALLING_THREAD, readNanos[0]);
        for (int i = 1; i < readTids.length; i++) {
            totalNanos += spentSince(readTids[i], readNanos[i]);
        }
        tids = readTids;
        lastNanos = readNanos;
        return totalNanos;
    }

    /**
     * What a thread spent since its last reading, where both readings are known; else nothing, as for a thread that
     * ended and whose id a new one took meanwhile, whose clock starts again from zero.
     */
    private long spentSince(int tid, long nowNanos) {
        int last = indexOf(tid);
        return last < 0 || nowNanos < 0 || lastNanos[last] < 0 || nowNanos < lastNanos[last] ? 0
                : nowNanos - lastNanos[last];
    }

    private int indexOf(int tid) {
        if (tid == CALLING_THREAD) {
            return 0;
        }
        // Listed in ascending order after the calling thread.
        int index = Arrays.binarySearch(tids, 1, tids.length, tid);
        return index < 0 ? -1 : index;
    }

    /**
     * The calling thread, then the service's threads listed now in ascending order; a thread not listed before is told
     * apart by its name. Null where the directory cannot be read.
     */
    private int[] listServiceThreads() {
        int[] now = new int[16];
        int count = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(taskDirectory)) {
            for (Path entry : entries) {
                int tid = tidOf(entry.getFileName().toString());
                if (tid > 0) {
                    now = count == now.length ? Arrays.copyOf(now, count * 2) : now;
                    now[count++] = tid;
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
        now = Arrays.copyOf(now, count);
        Arrays.sort(now);
        boolean[] jvm = new boolean[count];
        int[] service = new int[count + 1];
        service[0] = CALLING_THREAD;
        int serviceCount = 1;
        for (int i = 0; i < count; i++) {
            int before = Arrays.binarySearch(listedTids, now[i]);
            jvm[i] = before >= 0 ? listedJvm[before] : isJvmThread(now[i]);
            if (!jvm[i]) {
                service[serviceCount++] = now[i];
            }
        }
        listedTids = now;
        listedJvm = jvm;
        return Arrays.copyOf(service, serviceCount);
    }

    /** Whether the thread's name is one HotSpot gives its own; a thread gone meanwhile is not read again either. */
    private boolean isJvmThread(int tid) {
        String name;
        try {
            name = Files.readString(taskDirectory.resolve(Integer.toString(tid)).resolve("comm"));
        } catch (IOException | RuntimeException gone) {
            return true;
        }
        for (String prefix : JVM_THREAD_NAME_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** A listed entry's thread id, or -1 for an entry that is none. */
    private static int tidOf(String fileName) {
        if (fileName.isEmpty() || fileName.length() > 10) {
            return -1;
        }
        long tid = 0;
        for (int i = 0; i < fileName.length(); i++) {
            char digit = fileName.charAt(i);
            if (digit < '0' || digit > '9') {
                return -1;
            }
            tid = tid * 10 + (digit - '0');
        }
        return tid > Integer.MAX_VALUE ? -1 : (int) tid;
    }

    /** Bound by the native library: see {@link ThreadClocks#read}; {@code 0} names the calling thread. */
    private static native void threadCpuNanos0(int[] tids, int count, long[] nanos);
}
