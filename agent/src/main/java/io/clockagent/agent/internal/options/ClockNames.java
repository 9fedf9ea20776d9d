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
     * Adds the entries of one {@code clocks} token to {@code clocks} as dotted names, and a warning for each one left
     * out to {@code warnings}.
     */
    static void parse(OptionToken token, List<String> clocks, List<String> warnings) {
        for (String raw : token.value().split(":", -1)) {
            String name = raw.trim();
            int lastDot = name.lastIndexOf('.');
            if (lastDot < 0 || !PackageNames.isPackageName(name)) {
                warnings.add("ignored '" + raw + "' in " + token.quoted() + "; expected " + VALID_FORMS);
                continue;
            }
            String neverRewritten = IgnoredPackages.reasonFor(name.substring(0, lastDot).replace('.', '/') + '/');
            if (neverRewritten != null) {
                warnings.add("ignored '" + raw + "' in " + token.quoted() + ": its class is never rewritten ("
                        + neverRewritten + ")");
            } else if (clocks.size() == MOST) {
                warnings.add("ignored '" + raw + "' in " + token.quoted() + AT_MOST);
            } else if (!clocks.contains(name)) {
                clocks.add(name);
            }
        }
    }
}
