package io.clockagent.agent.internal.rewrite;

/**
 * The classes the agent never rewrites, whatever the options say. Each entry says why.
 */
public final class IgnoredPackages {

    private static final String[][] PREFIXES_AND_REASONS = {
        // The JDK: its clock reads are its own business, and its classes are shared by every application.
        {"java/", "part of the JDK"},
        {"javax/", "part of the JDK"},
        {"jdk/", "part of the JDK"},
        {"sun/", "part of the JDK"},
        {"com/sun/", "part of the JDK"},
        // The agent itself, and the libraries relocated under it: the ticker must read the real clock.
        {"io/clockagent/agent/", "part of clock-agent"},
    };

    private IgnoredPackages() {
    }

    /** Whether the selection could cover a class of these packages: with no include, or one above one of them. */
    static boolean mayBeCoveredBy(PackageSelection packages) {
        for (String[] entry : PREFIXES_AND_REASONS) {
            if (packages.mayCoverClassesUnder(entry[0])) {
                return true;
            }
        }
        return false;
    }

    /** The prefixes alone, for the native filter. */
    public static String[] prefixes() {
        String[] prefixes = new String[PREFIXES_AND_REASONS.length];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = PREFIXES_AND_REASONS[i][0];
        }
        return prefixes;
    }

    /** Why classes with this internal-name prefix are never rewritten, or null if nothing forbids it. */
    public static String reasonFor(String internalName) {
        for (String[] entry : PREFIXES_AND_REASONS) {
            if (internalName.startsWith(entry[0])) {
                return entry[1];
            }
        }
        return null;
    }
}
