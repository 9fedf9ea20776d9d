package io.clockagent.stacks.libraryclocks;

import com.alibaba.csp.sentinel.Entry;
import com.alibaba.csp.sentinel.SphU;
import com.alibaba.csp.sentinel.slots.block.BlockException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One client's connection, a request per line, each answered with one line:
 * <ul>
 *   <li>{@code ids N}: in a Sentinel entry of the resource {@value #IDS_RESOURCE}, takes N ids from each generator,
 *       reads each library clock once and records how far each is behind the JDK's clock; answers {@code ids} and per generator
 *       {@code NAME count=N increasing=B unique=B min=A max=B} ({@link IdBatch});</li>
 *   <li>{@code burst MILLIS}: for that long, flat out, in a Sentinel entry of {@value #BURST_RESOURCE} each time, takes
 *       one id from each generator and reads each library clock; answers {@code burst iterations=N};</li>
 *   <li>{@code threads}: {@code threads} and the name of every live thread, sorted, each after a tab;</li>
 *   <li>{@code stats}: {@code stats} and the service's counts ({@link ServiceCounts}).</li>
 * </ul>
 * A request Sentinel blocks is answered {@code blocked}; no rule is loaded, so none should be.
 */
final class Session implements Runnable {

    static final String IDS_RESOURCE = "ids";
    static final String BURST_RESOURCE = "burst";
    private static final int MAX_IDS = 100_000;
    private static final long MAX_BURST_MILLIS = 60_000;

    private final Socket socket;
    private final List<CheckedIds> generators;
    private final ServiceCounts counts;
    private final LibraryClockReads clocks;
    /** Where the clock reads go, so that they cannot be optimised away. */
    private long sink;

    Session(Socket socket, List<CheckedIds> generators, ServiceCounts counts) {
        this.socket = socket;
        this.generators = generators;
        this.counts = counts;
        this.clocks = new LibraryClockReads(counts);
    }

    @Override
    public void run() {
        try (socket;
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8));
                PrintWriter out = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8)) {
            for (String request = in.readLine(); request != null; request = in.readLine()) {
                out.println(answer(request.trim().split(" ")));
            }
        } catch (IOException clientGone) {
            // The client closed its end; nothing is owed to it.
        }
    }

    private String answer(String[] request) {
        if (request.length == 2 && request[0].equals("ids")) {
            Integer count = parsed(request[1], MAX_IDS);
            return count == null ? "error: ids takes a count from 1 to " + MAX_IDS : ids(count);
        }
        if (request.length == 2 && request[0].equals("burst")) {
            Integer millis = parsed(request[1], MAX_BURST_MILLIS);
            return millis == null ? "error: burst takes milliseconds from 1 to " + MAX_BURST_MILLIS : burst(millis);
        }
        if (request.length == 1 && request[0].equals("threads")) {
            return threads();
        }
        if (request.length == 1 && request[0].equals("stats")) {
            return "stats " + counts.describe();
        }
        return "error: unknown request; valid: ids N, burst MILLIS, threads, stats";
    }

    /** The number, or null where it is not a whole number from 1 to {@code max}. */
    private static Integer parsed(String text, long max) {
        try {
            long value = Long.parseLong(text);
            return value >= 1 && value <= max ? (int) value : null;
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private String ids(int count) {
        Entry entry;
        try {
            entry = SphU.entry(IDS_RESOURCE);
        } catch (BlockException blocked) {
            counts.sentinelBlocked.incrementAndGet();
            return "blocked";
        }
        try {
            counts.sentinelEntries.incrementAndGet();
            StringBuilder answer = new StringBuilder("ids");
            for (CheckedIds generator : generators) {
                IdBatch batch = new IdBatch(count);
                for (int i = 0; i < count; i++) {
                    long id = generator.take();
                    if (id != CheckedIds.REFUSED) {
                        batch.add(id);
                    }
                }
                answer.append(' ').append(batch.describe(generator.name()));
            }
            sink += clocks.readEach();
            clocks.recordLags();
            counts.clockReads.incrementAndGet();
            return answer.toString();
        } finally {
            entry.exit();
        }
    }

    private String burst(long millis) {
        long endNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        long iterations = 0;
        long sum = 0;
        while (System.nanoTime() - endNanos < 0) {
            Entry entry;
            try {
                entry = SphU.entry(BURST_RESOURCE);
            } catch (BlockException blocked) {
                counts.sentinelBlocked.incrementAndGet();
                continue;
            }
            try {
                for (CheckedIds generator : generators) {
                    sum += generator.take();
                }
                sum += clocks.readEach();
            } finally {
                entry.exit();
            }
            iterations++;
        }
        counts.sentinelEntries.addAndGet(iterations);
        counts.clockReads.addAndGet(iterations);
        sink += sum;
        return "burst iterations=" + iterations;
    }

    private static String threads() {
        List<String> names = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            names.add(thread.getName());
        }
        Collections.sort(names);
        return "threads\t" + String.join("\t", names);
    }
}
