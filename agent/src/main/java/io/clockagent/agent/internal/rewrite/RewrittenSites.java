package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.CallSiteRewriter;
import io.clockagent.agent.internal.classfile.ClassFileException;
import io.clockagent.agent.internal.classfile.RewrittenClass;
import io.clockagent.agent.internal.log.AgentLog;

/**
 * Counts the call sites of each class rewritten (or, in a dry run, found), for the report and the MBean, and prints
 * them with {@code verbose=true}; whichever rewriter did the work, from the class's original bytes, read-only. So too
 * the java.time reads of instants a class in scope keeps direct, which {@code cachedInstants} would take.
 * Needs nothing of {@code java.instrument}, so that an entry without it shows the same lines.
 */
public final class RewrittenSites {

    private final PackageSelection packages;
    private final RewriteCounters counters;
    private final AgentLog log;
    private final boolean verbose;
    private final String verb;

    public RewrittenSites(PackageSelection packages, RewriteCounters counters, AgentLog log, boolean verbose,
            boolean dryRun) {
        this.packages = packages;
        this.counters = counters;
        this.log = log;
        this.verbose = verbose;
        this.verb = dryRun ? "would rewrite " : "rewrote ";
    }

    /** @param className the internal name, as the JVM hands it to a class-file hook */
    public void show(String className, byte[] original) {
        String binaryName = className.replace('/', '.');
        RewrittenClass rewritten;
        try {
            rewritten = RewrittenClass.counted(binaryName, original, packages.cachedInstants(className),
                    packages.clockMethods());
        } catch (ClassFileException unreadable) {
            // A method body the JVM's verifier will refuse in turn; the rewrite did not touch it.
            log.line(verb + binaryName + ", but cannot count its call sites: " + unreadable.getMessage());
            return;
        }
        counters.sitesCounted(rewritten);
        if (verbose) {
            log.line(verb + binaryName + ": " + rewritten.callSites() + " call sites, " + rewritten.methodReferences()
                    + " method references");
        }
        showInstantReadsLeft(className, original, rewritten.callSites() + rewritten.methodReferences());
    }

    /**
     * Counts, and with {@code verbose=true} prints, the java.time reads of instants that a class in scope outside
     * {@code cachedInstants}, which the rewrite left as it was, keeps direct; a class with none, or inside it, is not
     * counted.
     *
     * @param className the internal name, as the JVM hands it to a class-file hook
     */
    public void showInstantReadsLeft(String className, byte[] original) {
        showInstantReadsLeft(className, original, 0);
    }

    /** @param usesRedirected the uses the rewrite redirected in the class, counted already */
    private void showInstantReadsLeft(String className, byte[] original, int usesRedirected) {
        if (packages.cachedInstants(className)) {
            return;
        }
        int left;
        try {
            left = CallSiteRewriter.instantReadsLeft(original, usesRedirected, packages.clockMethods());
        } catch (ClassFileException unreadable) {
            // Reported, where it matters, by the rewrite itself.
            return;
        }
        if (left == 0) {
            return;
        }
        counters.instantReadsLeft(left);
        if (verbose) {
            int packageEnd = className.lastIndexOf('/');
            String packageName = packageEnd < 0 ? "(the unnamed package)"
                    : className.substring(0, packageEnd).replace('/', '.');
            log.line("left " + className.replace('/', '.') + ": " + left + " java.time reads of instants direct, as"
                    + " the cache would change their resolution; cachedInstants=" + packageName + " takes them");
        }
    }
}
