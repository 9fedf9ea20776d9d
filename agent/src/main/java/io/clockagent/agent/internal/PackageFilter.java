package io.clockagent.agent.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Which classes the user asked to have rewritten: package prefixes that match on name boundaries, with excludes
 * winning over includes. Immutable.
 */
public final class PackageFilter {

    private static final String VALID_FORMS = "a package name such as com.acme, optionally ending in .* or .**,"
            + " several joined by ':'";

    /** Internal-form prefixes ending in '/', so that "com/acme/" never matches "com/acmeplus/". */
    private final String[] includePrefixes;
    private final String[] excludePrefixes;

    PackageFilter(List<String> includePackages, List<String> excludePackages) {
        this.includePrefixes = toPrefixes(includePackages);
        this.excludePrefixes = toPrefixes(excludePackages);
    }

    private static String[] toPrefixes(List<String> packages) {
        String[] prefixes = new String[packages.size()];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = packages.get(i).replace('.', '/') + '/';
        }
        return prefixes;
    }

    /** Parses the value of one include or exclude token into dotted package names. */
    static List<String> parsePackages(OptionToken token) {
        String value = token.value();
        if (value.isEmpty()) {
            throw new AgentOptionsException("empty package list in " + token.quoted() + "; expected " + VALID_FORMS);
        }
        List<String> packages = new ArrayList<>();
        for (String raw : value.split(":", -1)) {
            String name = raw.trim();
            if (name.endsWith(".**")) {
                name = name.substring(0, name.length() - 3);
            } else if (name.endsWith(".*")) {
                name = name.substring(0, name.length() - 2);
            }
            if (!isPackageName(name)) {
                throw new AgentOptionsException("bad package '" + raw + "' in " + token.quoted() + "; expected "
                        + VALID_FORMS);
            }
            String neverRewritten = IgnoredPackages.reasonFor(name.replace('.', '/') + '/');
            if (neverRewritten != null) {
                throw new AgentOptionsException("package '" + raw + "' in " + token.quoted() + " is never rewritten ("
                        + neverRewritten + "); name your own packages instead");
            }
            packages.add(name);
        }
        return packages;
    }

    private static boolean isPackageName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (String part : name.split("\\.", -1)) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0))) {
                return false;
            }
            for (int i = 1; i < part.length(); i++) {
                if (!Character.isJavaIdentifierPart(part.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether a class, by its internal name ({@code com/acme/Foo}), lies in the chosen packages. */
    public boolean covers(String internalClassName) {
        for (String prefix : excludePrefixes) {
            if (internalClassName.startsWith(prefix)) {
                return false;
            }
        }
        if (includePrefixes.length == 0) {
            return true;
        }
        for (String prefix : includePrefixes) {
            if (internalClassName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Internal-name prefixes such as {@code com/acme/}, for the native filter, which matches them as {@link #covers}
     * does.
     */
    String[] includePrefixes() {
        return includePrefixes.clone();
    }

    /** @see #includePrefixes() */
    String[] excludePrefixes() {
        return excludePrefixes.clone();
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

    String describe() {
        return "include=" + (includePrefixes.length == 0 ? "(all non-JDK classes)" : join(includePrefixes))
                + " exclude=" + (excludePrefixes.length == 0 ? "(none)" : join(excludePrefixes));
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
