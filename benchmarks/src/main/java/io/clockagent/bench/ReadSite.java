package io.clockagent.bench;

import java.util.List;

/**
 * Where one sampled wall-clock read came from, named from the reading thread's stack in a thread dump: the clock
 * method the code called ({@code via}), the first frame outside {@code java.time} and the clock's native methods
 * ({@code reader}), and, where that frame is the JDK's own, the first frame outside the JDK ({@code onBehalfOf}: the
 * code the JDK read for, which the agent can reach where the JDK's cannot). Immutable.
 *
 * @param exact whether the stack was dumped inside the clock's native method; otherwise the read came from
 *     JIT-compiled code (an intrinsic {@code currentTimeMillis()}) and the stack was dumped at that code's next
 *     safepoint poll, in the method that read or just after it
 */
record ReadSite(String via, String reader, String onBehalfOf, boolean exact) {

    private static final List<String> CLOCK_NATIVES = List.of("java.lang.System.currentTimeMillis",
            "jdk.internal.misc.VM.getNanoTimeAdjustment");
    private static final List<String> JDK_PACKAGES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.");
    static final String COMPILED = "(JIT-compiled read)";
    /** The agent's cached clock, which it defines in {@code java.lang}; its direct reads are the agent's, not the JDK's. */
    private static final String AGENT_IN_JAVA_LANG = "java.lang.ClockAgent";

    /** @param frames the thread's frames as {@code package.Class.method}, innermost first */
    static ReadSite of(List<String> frames) {
        boolean exact = !frames.isEmpty() && CLOCK_NATIVES.contains(frames.get(0));
        String via = COMPILED;
        int frame = 0;
        while (frame < frames.size() && isClock(frames.get(frame))) {
            via = frames.get(frame);
            frame++;
        }
        String reader = frame < frames.size() ? frames.get(frame) : "(no Java frame)";
        String onBehalfOf = "";
        if (isJdk(reader)) {
            while (frame < frames.size() && isJdk(frames.get(frame))) {
                frame++;
            }
            onBehalfOf = frame < frames.size() ? frames.get(frame) : "(the JDK alone)";
        }
        return new ReadSite(via, reader, onBehalfOf, exact);
    }

    /** Whether the JDK's own code made the read, which the agent never rewrites. */
    boolean inJdk() {
        return !onBehalfOf.isEmpty();
    }

    private static boolean isClock(String frame) {
        return CLOCK_NATIVES.contains(frame) || frame.startsWith("java.time.");
    }

    private static boolean isJdk(String frame) {
        return JDK_PACKAGES.stream().anyMatch(frame::startsWith) && !frame.startsWith(AGENT_IN_JAVA_LANG);
    }
}
