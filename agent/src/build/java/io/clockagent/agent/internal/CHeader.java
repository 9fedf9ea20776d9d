package io.clockagent.agent.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A C header that a build-time generator writes from the agent's Java constants, so that the C code and the Java code
 * cannot drift apart on them: an include guard around {@code #define}s and comments, written as ASCII. Used by the
 * generators under {@code agent/src/build/java/}, which {@code agent/src/main/c/build.sh} runs; never shipped.
 */
public final class CHeader {

    private final StringBuilder text = new StringBuilder();

    /**
     * @param guard the include guard's macro, such as {@code CLOCK_AGENT_OPTION_GRAMMAR_H}
     * @param origin what the header was written from, for its first comment
     */
    public CHeader(String guard, String origin) {
        text.append("/* Written by ").append(origin).append(" at build time. */\n")
                .append("#ifndef ").append(guard).append("\n#define ").append(guard).append("\n\n");
    }

    public CHeader define(String name, Object value) {
        text.append("#define ").append(name).append(' ').append(value).append('\n');
        return this;
    }

    public CHeader comment(String comment) {
        text.append("/* ").append(comment).append(" */\n");
        return this;
    }

    /** Writes the header to {@code output}, creating its folder. */
    public void write(Path output) throws IOException {
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, text + "\n#endif\n", StandardCharsets.US_ASCII);
    }

    /** The texts are plain ASCII, so no character needs escaping; anything else would be a mistake here. */
    public static String quoted(String ascii) {
        if (!ascii.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\')) {
            throw new IllegalArgumentException("not plain ASCII: " + ascii);
        }
        return '"' + ascii + '"';
    }
}
