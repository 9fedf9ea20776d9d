package io.clockagent.it.slowclock;

import io.clockagent.it.support.Jdk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How many calls the slow-clock library answered in one process, as it wrote them at exit:
 * {@code clock_gettime_realtime=N clock_gettime_other=N gettimeofday=N time=N}.
 *
 * @param realtimeCalls {@code clock_gettime(CLOCK_REALTIME)}, what {@code System.currentTimeMillis()} calls from
 *     JDK 15 on
 * @param otherClockCalls {@code clock_gettime} of any other clock, such as {@code nanoTime()}'s CLOCK_MONOTONIC
 * @param gettimeofdayCalls {@code gettimeofday}, what {@code System.currentTimeMillis()} calls before JDK 15
 */
record SlowClockCounts(long realtimeCalls, long otherClockCalls, long gettimeofdayCalls, long timeCalls) {

    /** The calls that this JDK's {@code System.currentTimeMillis()} makes. */
    long wallClockCalls(Jdk jdk) {
        return jdk.featureVersion() >= 15 ? realtimeCalls : gettimeofdayCalls;
    }

    /** Fails the test when the file is missing, which means the library never ran in that process. */
    static SlowClockCounts readFrom(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("the slow-clock library wrote no counts to " + file + ", so the process never"
                    + " loaded it, or did not exit normally");
        }
        Map<String, Long> counts = new HashMap<>();
        try {
            for (String pair : Files.readString(file, StandardCharsets.US_ASCII).trim().split(" ")) {
                String[] keyAndValue = pair.split("=");
                counts.put(keyAndValue[0], Long.parseLong(keyAndValue[1]));
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException(unreadable);
        }
        return new SlowClockCounts(counts.get("clock_gettime_realtime"), counts.get("clock_gettime_other"),
                counts.get("gettimeofday"), counts.get("time"));
    }
}
