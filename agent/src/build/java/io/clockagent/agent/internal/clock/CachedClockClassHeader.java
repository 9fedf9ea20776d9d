package io.clockagent.agent.internal.clock;

import io.clockagent.agent.internal.CHeader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code cached_clock_class.h}: the cached clock's class files as {@link BootClock} defines them in
 * {@code java.lang} (the agent's class, renamed), one for a JDK with {@code java.time.InstantSource} and one for an
 * older JDK, with the first release that has it, for the native hook, which defines the one its JVM needs through JNI
 * before any of the agent's Java has run. The same bytes, renamed by the same code, so the two entries define the
 * same class. Run by {@code agent/src/main/c/build.sh} at build time, against the agent's compiled classes, and never
 * shipped.
 *
 * <p>Usage: {@code java -cp GENERATOR:CLASSES io.clockagent.agent.internal.clock.CachedClockClassHeader OUTPUT_FILE}
 */
final class CachedClockClassHeader {

    private static final int BYTES_PER_LINE = 24;

    private CachedClockClassHeader() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: CachedClockClassHeader OUTPUT_FILE");
        }
        new CHeader("CLOCK_AGENT_CACHED_CLOCK_CLASS_H", "CachedClockClassHeader.java from the compiled CachedClock"
                + " class, renamed by ClassRenamer as BootClock does")
                .define("CACHED_CLOCK_INTERNAL_NAME", CHeader.quoted(BootClock.INTERNAL_NAME))
                .define("INSTANT_SOURCE_FEATURE", BootClock.INSTANT_SOURCE_FEATURE)
                .define("CACHED_CLOCK_CLASS_BYTES", initializer(BootClock.classFile(true)))
                .define("CACHED_CLOCK_CLASS_BYTES_BEFORE_INSTANT_SOURCE", initializer(BootClock.classFile(false)))
                .write(Path.of(args[0]));
    }

    /** The bytes as a C array's initializer, over continued lines. */
    private static CharSequence initializer(byte[] classFile) {
        StringBuilder bytes = new StringBuilder("{");
        for (int i = 0; i < classFile.length; i++) {
            bytes.append(i == 0 ? "" : ",").append(i % BYTES_PER_LINE == 0 ? " \\\n    " : " ")
                    .append(classFile[i] & 0xff);
        }
        return bytes.append(" }");
    }
}
