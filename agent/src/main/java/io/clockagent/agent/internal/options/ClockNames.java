package io.clockagent.agent.internal.options;

import io.clockagent.agent.internal.rewrite.IgnoredPackages;
import java.util.List;

/**
 * The value of {@code clocks}: the service's own clock methods, each its class's binary name and its name, such as
 * {@code com.acme.time.SystemClock.now}, joined by ':'. An entry that is not of that form, or names a class the
 * agent never rewrites, is left out with a warning, so that the rest of the options run as given.
 */
final class ClockNames {

    /** As many as the agent watches besides the library clocks, which the MBean and the report list. */
    static final int MOST = 32;
    static final String VALID_FORMS = "a static long method's class and name, such as"
            + " com.acme.time.SystemClock.now, several joined by ':'";
    static final String AT_MOST = ": at most " + MOST + " clock methods";

    private ClockNames() {
    }

    /**
     * Adds the entries of one {@code clocks} token to {@code clocks} as dotted names, and each one left out to
     * {@code leftOut}.
     */
    static void parse(OptionToken token, List<String> clocks, LeftOutEntries leftOut) {
        String value = token.value();
        for (int start = 0, end; start <= value.length(); start = end + 1) {
            end = PackageNames.entryEnd(value, start);
            String raw = value.substring(start, end);
            String name = raw.trim();
            int lastDot = name.lastIndexOf('.');
            if (lastDot < 0 || !PackageNames.isPackageName(name)) {
                leftOut.add(raw, token, "; expected " + VALID_FORMS);
                continue;
            }
            String neverRewritten = IgnoredPackages.reasonFor(name.substring(0, lastDot).replace('.', '/') + '/');
            if (neverRewritten != null) {
                leftOut.add(raw, token, ": its class is never rewritten (" + neverRewritten + ")");
            } else if (clocks.size() == MOST) {
                leftOut.add(raw, token, AT_MOST);
            } else if (!clocks.contains(name)) {
                clocks.add(name);
            }
        }
    }
}
