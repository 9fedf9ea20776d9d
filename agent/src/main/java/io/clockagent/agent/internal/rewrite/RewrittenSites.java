package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.ClassFileException;
import io.clockagent.agent.internal.classfile.RewrittenClass;
import io.clockagent.agent.internal.log.AgentLog;

/**
 * Counts the call sites of each class rewritten (or, in a dry run, found), for the report and the MBean, and prints
 * them with {@code verbose=true}; whichever rewriter did the work, from the class's original bytes, read-only.
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
            rewritten = RewrittenClass.counted(binaryName, original, packages.cachedInstants(className));
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
    }
}
