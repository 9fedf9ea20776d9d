package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.ClockMethod;
import io.clockagent.agent.internal.classfile.ClockMethods;
import java.util.ArrayList;
import java.util.List;

/**
 * Which classes the user asked to have rewritten: package prefixes that match on name boundaries, with excludes
 * winning over includes; those of them whose reads of instants are served from the cache too
 * ({@code cachedInstants}); and the clock methods besides the JDK's whose uses are redirected in all of them (the
 * library clocks, and the service's own). Immutable.
 */
public final class PackageSelection {

    /** Internal-form prefixes ending in '/', so that "com/acme/" never matches "com/acmeplus/". */
    private final String[] includePrefixes;
    private final String[] excludePrefixes;
    private final String[] cachedInstantsPrefixes;
    private final ClockMethods clockMethods;
    /** As the option gave them, for the banner. */
    private final List<String> ownClocks;

    /**
     * @param ownClocks the service's own clock methods, each its class's binary name and its name, such as
     *     {@code com.acme.time.SystemClock.now}
     */
    public PackageSelection(List<String> includePackages, List<String> excludePackages,
            List<String> cachedInstantsPackages, LibraryClockPolicy libraryClocks, List<String> ownClocks) {
        this.includePrefixes = toPrefixes(includePackages);
        this.excludePrefixes = toPrefixes(excludePackages);
        this.cachedInstantsPrefixes = toPrefixes(cachedInstantsPackages);
        List<ClockMethod> own = new ArrayList<>();
        for (String clock : ownClocks) {
            int lastDot = clock.lastIndexOf('.');
            own.add(new ClockMethod(clock.substring(0, lastDot).replace('.', '/'), clock.substring(lastDot + 1)));
        }
        this.ownClocks = List.copyOf(ownClocks);
        this.clockMethods = libraryClocks == LibraryClockPolicy.RETIRE ? ClockMethods.libraryClocksAnd(own)
                : ClockMethods.of(own);
    }

    private static String[] toPrefixes(List<String> packages) {
        String[] prefixes = new String[packages.size()];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = packages.get(i).replace('.', '/') + '/';
        }
        return prefixes;
    }

    /** Whether a class, by its internal name ({@code com/acme/Foo}), lies in the chosen packages. */
    public boolean covers(String internalClassName) {
        return !startsWithAny(internalClassName, excludePrefixes)
                && (includePrefixes.length == 0 || startsWithAny(internalClassName, includePrefixes));
    }

    private static boolean startsWithAny(String internalClassName, String[] prefixes) {
        for (String prefix : prefixes) {
            if (internalClassName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a class, by its internal name, lies in a package of {@code cachedInstants}: if it is rewritten at all,
     * its reads of instants are redirected too.
     */
    public boolean cachedInstants(String internalClassName) {
        return startsWithAny(internalClassName, cachedInstantsPrefixes);
    }

    /** The clock methods whose uses a rewrite sends to the cached clock's {@code currentTimeMillis()}. */
    public ClockMethods clockMethods() {
        return clockMethods;
    }

    /**
     * Internal-name prefixes such as {@code com/acme/}, for the native filter, which matches them as {@link #covers}
     * does.
     */
    public String[] includePrefixes() {
        return includePrefixes.clone();
    }

    /** @see #includePrefixes() */
    public String[] excludePrefixes() {
        return excludePrefixes.clone();
    }

    /** @see #includePrefixes() */
    public String[] cachedInstantsPrefixes() {
        return cachedInstantsPrefixes.clone();
    }

    /** Whether an include reaches some class below an internal-form prefix such as {@code com/sun/}; excludes aside. */
    boolean mayCoverClassesUnder(String internalPrefix) {
        if (includePrefixes.length == 0) {
            return true;
        }
        for (String prefix : includePrefixes) {
            if (internalPrefix.startsWith(prefix) || prefix.startsWith(internalPrefix)) {
                return true;
            }
        }
        return false;
    }

    public String describe() {
        return "include=" + (includePrefixes.length == 0 ? "(all non-JDK classes)" : join(includePrefixes))
                + " exclude=" + (excludePrefixes.length == 0 ? "(none)" : join(excludePrefixes))
                + (cachedInstantsPrefixes.length == 0 ? "" : " cachedInstants=" + join(cachedInstantsPrefixes))
                + (ownClocks.isEmpty() ? "" : " clocks=" + String.join(":", ownClocks));
    }

    private static String join(String[] prefixes) {
        StringBuilder joined = new StringBuilder();
        for (String prefix : prefixes) {
            if (joined.length() > 0) {
                joined.append(':');
            }
            joined.append(prefix, 0, prefix.length() - 1);
        }
        return joined.toString().replace('/', '.');
    }
}
