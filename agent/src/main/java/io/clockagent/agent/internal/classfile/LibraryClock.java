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

    /**
     * Every library clock the rewriter knows, with the thread each starts; each of its class's other members is left
     * as it is, and loads the class. None aligns its refreshes to the millisecond: each runs from when its thread
     * started, and drifts by every late wake-up.
     */
    public static final List<LibraryClock> ALL = List.of(
            // mybatis-plus-core 3.x: read by Sequence.timeGen(), behind IdWorker, the default id generator of every
            // entity with an ASSIGN_ID key. The first now() or nowDate() starts, through a holder class, a daemon
            // thread that stores currentTimeMillis() in an AtomicLong every 1 ms (scheduleAtFixedRate), for the JVM's
            // life. nowDate(), a Timestamp's text of the same clock, is left as it is.
            new LibraryClock("com/baomidou/mybatisplus/core/toolkit/SystemClock", "now", "mybatis-plus",
                    "System Clock"),
            // hutool-core 5.x: the same design, its value in a volatile long, read by Snowflake.genTime() where a
            // Snowflake is built with useSystemClock (the default constructors do not). Its public constructor
            // SystemClock(period), left as it is, starts one more such thread each time; nowDate() is left as it is.
            new LibraryClock("cn/hutool/core/date/SystemClock", "now", "Hutool", "System Clock"),
            // sentinel-core 1.8.x: read by every resource entry and statistic. Its static initializer starts a thread
            // that, from 1.8.2 on, refreshes every 1 ms while it counts more than 1,200 reads a second and sleeps
            // 300 ms a turn below 800, the reads then going to the real clock; up to 1.8.1, every 1 ms. instance()
            // and getTime(), which nothing in Sentinel calls, are left as they are.
            new LibraryClock("com/alibaba/csp/sentinel/util/TimeUtil", "currentTimeMillis", "Sentinel",
                    "sentinel-time-tick-thread"),
            // dubbo-common 3.2 and later: the first call starts a thread that sleeps 1 ms between refreshes. It tests
            // a flag that its starter sets only after starting it, so that where the thread runs first it ends at
            // once and the value stays as it was at that call, for the JVM's life. Nothing in Dubbo calls it.
            new LibraryClock("org/apache/dubbo/common/utils/TimeUtils", "currentTimeMillis", "Dubbo",
                    "time-millis-ticker-thread"),
            // mybatis-plus-support 2.x (2.3.3 read): the 3.x design in the package of that line, read by its
            // Sequence.timeGen(), behind IdWorker; nowDate() is left as it is.
            new LibraryClock("com/baomidou/mybatisplus/toolkit/SystemClock", "now", "mybatis-plus 2",
                    "System Clock"),
            // hutool-core 6 (milestones, org.dromara; 6.0.0-M21 read): Hutool 5's clock in Hutool 6's package, read
            // by its Snowflake.genTime() where built with useSystemClock; the constructor and nowDate() are left alone.
            new LibraryClock("org/dromara/hutool/core/date/SystemClock", "now", "Hutool 6", "System Clock"),
            // dynamic-tp-common 1.1.3 to 1.1.5 (1.1.6 dropped it): Sentinel's 1.8.1 clock, started by its static
            // initializer, sleeping 1 ms between refreshes, for the JVM's life. currentTimeSeconds(), also ()J but in
            // seconds, is left as it is, and loads the class where dynamic-tp reads it: its performance metrics
            // (TpPerformanceProvider) and its Lark notifier's signature.
            new LibraryClock("org/dromara/dynamictp/common/util/TimeUtil", "currentTimeMillis", "dynamic-tp",
                    "dtp-time-tick-thread"),
            // dynamic-tp-common 1.1.0 to 1.1.2 (cn.dynamictp): the same, in that line's package, where only the Lark
            // notifier reads currentTimeSeconds().
            new LibraryClock("com/dtp/common/util/TimeUtil", "currentTimeMillis", "dynamic-tp 1.1.2",
                    "dtp-time-tick-thread"));

    private final ClockMethod method;
    private final String library;
    private final String threadName;

    private LibraryClock(String owner, String name, String library, String threadName) {
        this.method = new ClockMethod(owner, name, true);
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
