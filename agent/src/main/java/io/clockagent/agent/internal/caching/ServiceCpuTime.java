package io.clockagent.agent.internal.caching;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The CPU time the service's own threads have spent, as a running total for {@link DirectReadPrice}: every thread of
 * the process but the JVM's own (its collectors, compilers and VM threads, told by the names HotSpot gives them) and
 * the ticker, each read from its kernel CPU clock through the agent's native library; and, apart, what the JVM's
 * compilers and VM threads spent, whose work does not grow with the service's requests, as the collectors' does. Used
 * by the ticker thread only.
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
     * characters): the collectors' (G1's, Parallel's, ZGC's, Shenandoah's, string deduplication's), then the VM
     * thread's and its periodic task's, the compilers' and the other VM threads'. A JVM thread these miss only adds its
     * work to the noise of the price.
     */
    static final String[] COLLECTOR_THREAD_NAME_PREFIXES = {"GC Thread#", "G1 ", "StrDedup", "ZDirector", "ZDriver",
        "ZStat", "ZUnmapper", "ZWorker", "ZRuntime", "Shenandoah"};
    static final String[] FIXED_JVM_THREAD_NAME_PREFIXES = {"VM ", "C1 CompilerThre", "C2 CompilerThre", "JVMCI",
        "Sweeper thread", "Service Thread", "Monitor Deflati"};
    /** What a listed thread is: the service's, the JVM's of a fixed work, a collector (not read) or gone. */
    private static final byte SERVICE = 0;
    private static final byte FIXED_JVM = 1;
    private static final byte NOT_READ = 2;
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
    private long fixedJvmNanos;
    /*
     * The threads read: the calling thread first, then the service's and then the JVM's of a fixed work, each kind in
     * ascending order, the JVM's from jvmFrom on, each with its last reading; and the last listing's threads, sorted by
     * id, each with its kind.
     */
    private int[] tids = {CALLING_THREAD};
    private int jvmFrom = 1;
    private long[] lastNanos = {UNKNOWN};
    private int[] listedTids = new int[0];
    private byte[] listedKinds = new byte[0];
    private int listedJvmFrom;
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
        int readJvmFrom = jvmFrom;
        if (!listed || nowNanos - listedAtNanos > LISTING_MOST_AGE_NANOS) {
            readTids = listThreads();
            if (readTids == null) {
                known = false;
                return UNKNOWN;
            }
            readJvmFrom = listedJvmFrom;
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
        for (int i = 1; i < readJvmFrom; i++) {
            totalNanos += spentSince(readTids[i], readNanos[i]);
        }
        for (int i = readJvmFrom; i < readTids.length; i++) {
            fixedJvmNanos += spentSince(readTids[i], readNanos[i]);
        }
        tids = readTids;
        jvmFrom = readJvmFrom;
        lastNanos = readNanos;
        return totalNanos;
    }

    /**
     * What the JVM's compilers and VM threads have spent since the first reading, as of the last {@link #nanos()}: its
     * work that does not grow with the requests.
     */
    public long fixedJvmNanos() {
        return known ? fixedJvmNanos : UNKNOWN;
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
        // Each kind in ascending order after the calling thread; a thread keeps its kind from listing to listing.
        int index = Arrays.binarySearch(tids, 1, jvmFrom, tid);
        if (index < 0) {
            index = Arrays.binarySearch(tids, jvmFrom, tids.length, tid);
        }
        return index < 0 ? -1 : index;
    }

    /**
     * The calling thread, then the service's threads listed now and then the JVM's of a fixed work, each kind in
     * ascending order, the JVM's from {@link #listedJvmFrom}; a thread not listed before is told apart by its name. Null
     * where the directory cannot be read.
     */
    private int[] listThreads() {
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
        byte[] kinds = new byte[count];
        int serviceCount = 0;
        int fixedJvmCount = 0;
        for (int i = 0; i < count; i++) {
            int before = Arrays.binarySearch(listedTids, now[i]);
            kinds[i] = before >= 0 ? listedKinds[before] : kindOf(now[i]);
            serviceCount += kinds[i] == SERVICE ? 1 : 0;
            fixedJvmCount += kinds[i] == FIXED_JVM ? 1 : 0;
        }
        int[] read = new int[1 + serviceCount + fixedJvmCount];
        read[0] = CALLING_THREAD;
        int nextService = 1;
        int nextFixedJvm = 1 + serviceCount;
        for (int i = 0; i < count; i++) {
            if (kinds[i] != NOT_READ) {
                read[kinds[i] == SERVICE ? nextService++ : nextFixedJvm++] = now[i];
            }
        }
        listedTids = now;
        listedKinds = kinds;
        listedJvmFrom = 1 + serviceCount;
        return read;
    }

    /** The thread's kind by its name; a thread gone meanwhile is not read. */
    private byte kindOf(int tid) {
        String name;
        try {
            name = Files.readString(taskDirectory.resolve(Integer.toString(tid)).resolve("comm"));
        } catch (IOException | RuntimeException gone) {
            return NOT_READ;
        }
        return startsWithAny(name, COLLECTOR_THREAD_NAME_PREFIXES) ? NOT_READ
                : startsWithAny(name, FIXED_JVM_THREAD_NAME_PREFIXES) ? FIXED_JVM : SERVICE;
    }

    private static boolean startsWithAny(String name, String[] prefixes) {
        for (String prefix : prefixes) {
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
