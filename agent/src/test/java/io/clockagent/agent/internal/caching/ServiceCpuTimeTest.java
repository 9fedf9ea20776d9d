package io.clockagent.agent.internal.caching;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceCpuTimeTest {

    private static final int CALLING_THREAD = 0;

    @TempDir
    Path tasks;

    /** Each thread's CPU time as its clock reads it; a thread missing reads as gone. */
    private final Map<Integer, Long> clocks = new HashMap<>();

    @Test
    void sumsWhatTheServiceThreadsSpentButTheJvmsOwnAndTheCallersAndTheCompilersApart() throws IOException {
        thread(101, "java", 5_000);
        thread(102, "request-1", 7_000);
        thread(103, "GC Thread#0", 9_000);
        thread(104, "C2 CompilerThre", 11_000);
        thread(105, "clock-agent-tic", 13_000);
        thread(106, "VM Thread", 1_000);
        clocks.put(CALLING_THREAD, 13_000L);
        ServiceCpuTime serviceCpu = new ServiceCpuTime(tasks, this::read);

        assertEquals(0, serviceCpu.nanos());

        clocks.put(101, 5_300L);
        clocks.put(102, 7_500L);
        clocks.put(103, 99_000L);
        clocks.put(104, 99_000L);
        clocks.put(105, 14_000L);
        clocks.put(106, 1_500L);
        clocks.put(CALLING_THREAD, 14_000L);
        assertEquals(800, serviceCpu.nanos(), "the requests' and the main thread's, not the collector's, the"
                + " compiler's or the caller's");
        assertEquals(88_000 + 500, serviceCpu.fixedJvmNanos(), "the compiler's and the VM thread's, apart; the"
                + " collector's nowhere");
    }

    @Test
    void aThreadGoneOrWhoseIdANewOneTookAddsNothingAndANewOneCountsFromItsFirstReading() throws Exception {
        thread(201, "request-1", 1_000);
        thread(202, "request-2", 2_000);
        clocks.put(CALLING_THREAD, 0L);
        ServiceCpuTime serviceCpu = new ServiceCpuTime(tasks, this::read);
        serviceCpu.nanos();

        clocks.remove(201);
        Files.delete(tasks.resolve("201").resolve("comm"));
        Files.delete(tasks.resolve("201"));
        clocks.put(202, 500L);
        thread(203, "request-3", 40_000);
        Thread.sleep(ServiceCpuTime.LISTING_MOST_AGE_NANOS / 1_000_000 + 20);
        assertEquals(0, serviceCpu.nanos(), "one gone, one new in the same id, one new from now");

        clocks.put(202, 800L);
        clocks.put(203, 40_100L);
        assertEquals(400, serviceCpu.nanos());
    }

    @Test
    void unknownForGoodWhereTheClocksCannotBeRead() throws IOException {
        thread(301, "request-1", 1_000);
        ServiceCpuTime unbound = new ServiceCpuTime(tasks, (tids, count, nanos) -> {
            throw new UnsatisfiedLinkError("threadCpuNanos0");
        });

        assertEquals(ServiceCpuTime.UNKNOWN, unbound.nanos());
        assertEquals(ServiceCpuTime.UNKNOWN, unbound.nanos());
        assertEquals(ServiceCpuTime.UNKNOWN, unbound.fixedJvmNanos());
    }

    @Test
    void unknownWhereTheThreadsCannotBeListed() {
        clocks.put(CALLING_THREAD, 0L);
        ServiceCpuTime serviceCpu = new ServiceCpuTime(tasks.resolve("none"), this::read);

        assertEquals(ServiceCpuTime.UNKNOWN, serviceCpu.nanos());
    }

    @Test
    void entriesThatNameNoThreadAreLeftOut() throws IOException {
        thread(401, "request-1", 1_000);
        Files.createDirectories(tasks.resolve("self"));
        Files.createDirectories(tasks.resolve("99999999999"));
        clocks.put(CALLING_THREAD, 0L);
        ServiceCpuTime serviceCpu = new ServiceCpuTime(tasks, (tids, count, nanos) -> {
            assertEquals(2, count, "the caller and thread 401 alone");
            read(tids, count, nanos);
        });

        assertEquals(0, serviceCpu.nanos());
    }

    private void thread(int tid, String name, long cpuNanos) throws IOException {
        Path task = Files.createDirectories(tasks.resolve(Integer.toString(tid)));
        Files.writeString(task.resolve("comm"), name + "\n");
        clocks.put(tid, cpuNanos);
    }

    private void read(int[] tids, int count, long[] nanos) {
        for (int i = 0; i < count; i++) {
            nanos[i] = clocks.getOrDefault(tids[i], -1L);
        }
    }
}
