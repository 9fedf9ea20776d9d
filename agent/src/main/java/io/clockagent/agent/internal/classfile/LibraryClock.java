package io.clockagent.agent.internal.classfile;

import java.util.List;

/**
 * A library's own cached clock: a static {@code ()J} method returning the epoch milliseconds from a field that a
 * thread of the library's refreshes, the pattern of the "SystemClock" articles, shipped by libraries that services
 * carry, often without knowing. By default the rewriter redirects its uses to the cached clock (see
 * {@link ClockMethods}): the method's class is then never initialized, and its thread never starts. Immutable.
 *
 * <p>Only the one method is redirected; every other member of its class is left as it is, and a use of one of them
 * initializes the class and starts its thread as before, which the agent then says. The cached clock is at least as
 * fresh as each of these: it is published right after each wall-clock millisecond, where theirs are refreshed every
 * millisecond from whenever their thread started, drifting by each late wake-up; and where the agent reads the clock
 * directly ({@code cache=auto} below break-even, before its ticker starts) it is the real clock.
 *
 * <p>The list is the native rewriter's too: the build writes it into {@code class_file_format.h}.
 */
public final class LibraryClock {

    /** Every library clock the rewriter knows, with the thread each starts. */
    public static final List<LibraryClock> ALL = List.of(
            // mybatis-plus-core (3.x): read by its snowflake Sequence, behind IdWorker, the default id generator of
            // every entity with an ASSIGN_ID key. Its singleton starts a daemon thread that stores currentTimeMillis()
            // in an AtomicLong every 1 ms (scheduleAtFixedRate, unaligned), for the JVM's life.
            new LibraryClock("com/baomidou/mybatisplus/core/toolkit/SystemClock", "now", "mybatis-plus",
                    "System Clock"),
            // hutool-core 5.x: the same design under Hutool's name, behind Snowflake built with useSystemClock and
            // behind DateUtil's current time where asked for. A holder class starts the thread on the first now().
            new LibraryClock("cn/hutool/core/date/SystemClock", "now", "Hutool", "System Clock"),
            // sentinel-core: read by every resource entry and statistic. Its static initializer starts a thread that
            // refreshes every 1 ms while it counts the reads as busy, and every 300 ms idle.
            new LibraryClock("com/alibaba/csp/sentinel/util/TimeUtil", "currentTimeMillis", "Sentinel",
                    "sentinel-time-tick-thread"),
            // dubbo-common 3.x: starts its ticker on the first call, and refreshes every 1 ms thereafter.
            new LibraryClock("org/apache/dubbo/common/utils/TimeUtils", "currentTimeMillis", "Dubbo",
                    "time-millis-ticker-thread"));

    private final ClockMethod method;
    private final String library;
    private final String threadName;

    private LibraryClock(String owner, String name, String library, String threadName) {
        this.method = new ClockMethod(owner, name);
        this.library = library;
        this.threadName = threadName;
    }

    public ClockMethod method() {
        return method;
    }

    /** The library's name, as its users know it. */
    public String library() {
        return library;
    }

    /** The name of the thread it starts to refresh its value. */
    public String threadName() {
        return threadName;
    }

    /** What it is, as the line that says its class loads after all puts it: {@code  (Hutool's clock, thread '...')}. */
    public String describe() {
        return " (" + library + "'s clock, thread '" + threadName + "')";
    }

    /** The library clock whose class has this internal name, or null. */
    public static LibraryClock ownedBy(String internalName) {
        for (LibraryClock clock : ALL) {
            if (clock.method.owner().equals(internalName)) {
                return clock;
            }
        }
        return null;
    }
}
