package io.clockagent.agent.internal.options;

import io.clockagent.agent.internal.rewrite.IgnoredPackages;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of {@code include} and {@code exclude}: package names such as {@code com.acme}, with an optional
 * {@code .*} or {@code .**} that means the same, joined by ':'. Names the JDK and the agent's own packages, which are
 * never rewritten, are refused rather than silently ignored.
 */
final class PackageNames {

    private static final String VALID_FORMS = "a package name such as com.acme, optionally ending in .* or .**,"
            + " several joined by ':'";

    private PackageNames() {
    }

    /** The dotted package names in the value of one include or exclude token. */
    static List<String> parse(OptionToken token) {
        String value = token.value();
        if (value.isEmpty()) {
            throw new AgentOptionsException("empty package list in " + token.quoted() + "; expected " + VALID_FORMS);
        }
        List<String> packages = new ArrayList<>();
        for (int start = 0, end; start <= value.length(); start = end + 1) {
            end = entryEnd(value, start);
            String raw = value.substring(start, end);
            String name = raw.trim();
            if (name.endsWith(".**")) {
                name = name.substring(0, name.length() - 3);
            } else if (name.endsWith(".*")) {
                name = name.substring(0, name.length() - 2);
            }
            if (!isPackageName(name)) {
                throw new AgentOptionsException("bad package '" + OptionToken.excerpt(raw) + "' in " + token.quoted()
                        + "; expected " + VALID_FORMS);
            }
            String neverRewritten = IgnoredPackages.reasonFor(name.replace('.', '/') + '/');
            if (neverRewritten != null) {
                throw new AgentOptionsException("package '" + OptionToken.excerpt(raw) + "' in " + token.quoted()
                        + " is never rewritten (" + neverRewritten + "); name your own packages instead");
            }
            packages.add(name);
        }
        return packages;
    }

    /** Where the ':'-separated entry of {@code value} that starts at {@code start} ends; read one at a time. */
    static int entryEnd(String value, int start) {
        int colon = value.indexOf(':', start);
        return colon < 0 ? value.length() : colon;
    }

    static boolean isPackageName(String name) {
        boolean partStart = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.' && !partStart) {
                partStart = true;
            } else if (c != '.' && (partStart ? Character.isJavaIdentifierStart(c)
                    : Character.isJavaIdentifierPart(c))) {
                partStart = false;
            } else {
                return false;
            }
        }
        return !partStart;
    }
}
