package io.clockagent.agent.internal.clock;

import io.clockagent.agent.internal.CHeader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code cached_clock_class.h}: the cached clock's class file as {@link BootClock} defines it in
 * {@code java.lang} (the agent's class, renamed), for the {@code -agentpath} entry, which defines it through JNI
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
        byte[] classFile = BootClock.classFile();
        StringBuilder bytes = new StringBuilder("{");
        for (int i = 0; i < classFile.length; i++) {
            bytes.append(i == 0 ? "" : ",").append(i % BYTES_PER_LINE == 0 ? " \\\n    " : " ")
                    .append(classFile[i] & 0xff);
        }
        new CHeader("CLOCK_AGENT_CACHED_CLOCK_CLASS_H", "CachedClockClassHeader.java from the compiled CachedClock"
                + " class, renamed by ClassRenamer as BootClock does")
                .define("CACHED_CLOCK_INTERNAL_NAME", CHeader.quoted(BootClock.INTERNAL_NAME))
                .define("CACHED_CLOCK_CLASS_BYTES", bytes.append(" }"))
                .write(Path.of(args[0]));
    }
}
