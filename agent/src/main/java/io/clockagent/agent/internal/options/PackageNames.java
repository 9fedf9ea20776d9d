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

    static boolean isPackageName(String name) {
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
}
