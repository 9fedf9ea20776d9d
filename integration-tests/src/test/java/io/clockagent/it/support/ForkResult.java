package io.clockagent.it.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one forked JVM did: its exit status and every line it wrote.
 *
 * @param command the full command line, for failure messages
 */
public record ForkResult(List<String> command, int exitStatus, List<String> stdout, List<String> stderr) {

    /** Everything about the run, for assertion messages: a failing check shows what the JVM actually did. */
    public String describe() {
        return "command: " + String.join(" ", command) + "\nexit status: " + exitStatus
                + "\n--- stdout ---\n" + String.join("\n", stdout)
                + "\n--- stderr ---\n" + String.join("\n", stderr) + "\n---";
    }

    /** The first stdout line that starts with {@code prefix}; fails the test when there is none. */
    public String stdoutLineStartingWith(String prefix) {
        for (String line : stdout) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("no stdout line starts with '" + prefix + "'\n" + describe());
    }

    /**
     * The values of the fixture's {@code KIND LABEL VALUE} lines, by label, in printed order.
     *
     * @param kind the first word of the lines to read, such as {@code shape}
     */
    public Map<String, String> labelled(String kind) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : stdout) {
            String[] words = line.split(" ");
            if (words.length == 3 && words[0].equals(kind)) {
                values.put(words[1], words[2]);
            }
        }
        return values;
    }

    /** The clock readings in the fixture's {@code KIND LABEL MILLIS} lines, by label, in printed order. */
    public Map<String, Long> readings(String kind) {
        Map<String, Long> readings = new LinkedHashMap<>();
        labelled(kind).forEach((label, millis) -> readings.put(label, Long.parseLong(millis)));
        return readings;
    }
}
