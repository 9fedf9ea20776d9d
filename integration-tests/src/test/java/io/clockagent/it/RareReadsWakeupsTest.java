package io.clockagent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.clockagent.it.fixtures.rarereads.RareReadsMain;
import io.clockagent.it.fixtures.rarereads.sites.RareReader;
import io.clockagent.it.support.AgentStart;
import io.clockagent.it.support.BuildOutputs;
import io.clockagent.it.support.ForkResult;
import io.clockagent.it.support.ForkedJvm;
import io.clockagent.it.support.Jdk;
import io.clockagent.it.support.Jdks;
import io.clockagent.it.support.LiveJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A service whose classes in scope read the clock rarely has no use for the agent's threads, which then cost it nothing
 * but a wake now and then: once the start delay is over, no thread of the agent wakes more than once a second. Counted
 * as the kernel counts them, in each thread's voluntary context switches ({@code /proc/PID/task/TID/status}), over a
 * window of {@value #WINDOW_SECONDS} s, in a service that reads the clock once a second, through each start at once
 * (the native start waits in its start thread, the Java start in its ticker), so that the three windows overlap.
 */
class RareReadsWakeupsTest {

    private static final String INCLUDE = "include=" + RareReader.class.getPackageName();
    /** Past the native start's delay (a second after the first rewrite) and the ticker's first look at the reads. */
    private static final long SETTLE_MILLIS = 2_000;
    private static final int WINDOW_SECONDS = 5;
    /**
     * A thread that wakes once a second wakes {@value #WINDOW_SECONDS} times in the window, one more where both ends of
     * the window catch a wake, and a wake may block twice (a thread that leaves native code during a safepoint waits
     * for its end); ten a second, as a 100 ms step makes, is far above.
     */
    private static final int MAX_WAKES = WINDOW_SECONDS + 2;
    /** What the kernel keeps of a thread's name: its first 15 bytes, as {@code clock-agent-sta} or {@code -tic}. */
    private static final String AGENT_THREAD_PREFIX = "clock-agent";
    private static final String BANNER_START = "clock-agent: " + BuildOutputs.agentVersion()
            + " caching System.currentTimeMillis(): ";

    @ParameterizedTest(name = "on JDK {0}")
    @ValueSource(ints = {Jdks.JDK_17, Jdks.JDK_25})
    void noAgentThreadWakesMoreThanOnceASecondWhereTheClockIsReadRarely(int featureVersion,
            @TempDir Path runDirectory) throws InterruptedException {
        Jdk jdk = Jdks.require(featureVersion);
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), () -> notice("no /proc/PID/task here"));
        Map<AgentStart, LiveJvm> services = new EnumMap<>(AgentStart.class);
        try {
            for (AgentStart start : AgentStart.values()) {
                services.put(start, start.addTo(new ForkedJvm(jdk, runDirectory), INCLUDE)
                        .classPath(BuildOutputs.testClasses()).startMain(RareReadsMain.class.getName()));
            }
            services.values().forEach(service -> service.awaitLine("ready"));
            TimeUnit.MILLISECONDS.sleep(SETTLE_MILLIS);
            Map<AgentStart, Map<Long, ThreadWakes>> before = snapshots(services);
            TimeUnit.SECONDS.sleep(WINDOW_SECONDS);
            Map<AgentStart, Map<Long, ThreadWakes>> after = snapshots(services);

            List<String> failures = new ArrayList<>();
            for (AgentStart start : AgentStart.values()) {
                ForkResult end = services.get(start).finish();
                assertEquals(0, end.exitStatus(), end.describe());
                assertEquals(1, end.stderr().size(), "the banner alone\n" + end.describe());
                assertTrue(end.stderr().get(0).startsWith(BANNER_START), "the banner\n" + end.describe());
                failures.addAll(judge(featureVersion, start, before.get(start), after.get(start)));
            }
            assertEquals(List.of(), failures, "at most " + MAX_WAKES + " wakes in " + WINDOW_SECONDS + " s");
        } finally {
            services.values().forEach(LiveJvm::close);
        }
    }

    /**
     * Prints what each thread of the agent did in the window, and returns a line for each that woke too often, or one
     * saying that the agent had no thread to judge.
     */
    private static List<String> judge(int featureVersion, AgentStart start, Map<Long, ThreadWakes> before,
            Map<Long, ThreadWakes> after) {
        long processWakes = 0;
        List<String> failures = new ArrayList<>();
        List<String> agentThreads = new ArrayList<>();
        for (Map.Entry<Long, ThreadWakes> thread : after.entrySet()) {
            ThreadWakes earlier = before.get(thread.getKey());
            long wakes = thread.getValue().voluntarySwitches - (earlier == null ? 0 : earlier.voluntarySwitches);
            processWakes += wakes;
            String name = thread.getValue().name;
            if (name.startsWith(AGENT_THREAD_PREFIX)) {
                String figure = name + " (" + thread.getKey() + ") " + wakes;
                agentThreads.add(figure);
                if (wakes > MAX_WAKES) {
                    failures.add("JDK " + featureVersion + " " + start + ": " + figure);
                }
            }
        }
        System.out.println("JDK " + featureVersion + " " + start + ": voluntary context switches in " + WINDOW_SECONDS
                + " s: agent threads " + agentThreads + ", the whole JVM " + processWakes);
        if (agentThreads.isEmpty()) {
            failures.add("JDK " + featureVersion + " " + start + ": no thread named " + AGENT_THREAD_PREFIX
                    + "* to count, where the native start waits in its start thread and the Java start in its ticker");
        }
        return failures;
    }

    private static Map<AgentStart, Map<Long, ThreadWakes>> snapshots(Map<AgentStart, LiveJvm> services) {
        Map<AgentStart, Map<Long, ThreadWakes>> snapshots = new EnumMap<>(AgentStart.class);
        services.forEach((start, service) -> snapshots.put(start, threadsOf(service.pid())));
        return snapshots;
    }

    /** Each live thread of the process by its id, with its name and voluntary context switches so far. */
    private static Map<Long, ThreadWakes> threadsOf(long pid) {
        Map<Long, ThreadWakes> threads = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String name = null;
                long switches = -1;
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("Name:")) {
                            name = line.substring("Name:".length()).trim();
                        } else if (line.startsWith("voluntary_ctxt_switches:")) {
                            switches = Long.parseLong(line.substring("voluntary_ctxt_switches:".length()).trim());
                        }
                    }
                } catch (NoSuchFileException ended) {
                    continue;
                }
                if (name != null && switches >= 0) {
                    threads.put(Long.parseLong(task.getFileName().toString()), new ThreadWakes(name, switches));
                }
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return threads;
    }

    private static String notice(String reason) {
        String notice = "NOTICE: " + reason + "; " + RareReadsWakeupsTest.class.getSimpleName() + " is SKIPPED, not"
                + " passed.";
        System.out.println(notice);
        return notice;
    }

    private record ThreadWakes(String name, long voluntarySwitches) {
    }
}
