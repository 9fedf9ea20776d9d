package io.clockagent.it.slowclock;

import io.clockagent.it.support.PreloadLibrary;
import java.nio.file.Path;
import java.util.Map;

/**
 * The preload library of {@code src/test/c/slowclock.c}, which makes every clock read of a process a system call, as
 * on a host whose clocksource has no vDSO fast path ({@link PreloadLibrary}).
 */
final class SlowClockLibrary {

    /** Names a file the library writes its call counts to when the process exits; see {@link SlowClockCounts}. */
    static final String COUNTS_VARIABLE = "SLOWCLOCK_COUNTS";

    private SlowClockLibrary() {
    }

    /** The built library; where it cannot be built, the calling test is skipped with a notice. */
    static Path build() {
        return PreloadLibrary.build("slowclock");
    }

    /** The environment that preloads the library into a forked JVM. */
    static Map<String, String> preloaded(Path library) {
        return Map.of("LD_PRELOAD", library.toString());
    }

    /** The same, with the library counting its calls into {@code countsFile}. */
    static Map<String, String> preloadedCountingInto(Path library, Path countsFile) {
        return Map.of("LD_PRELOAD", library.toString(), COUNTS_VARIABLE, countsFile.toString());
    }
}
