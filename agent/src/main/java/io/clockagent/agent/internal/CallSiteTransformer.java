package io.clockagent.agent.internal;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The failure boundary between the JVM's class loading and the rewriter: decides which classes to rewrite, and
 * makes sure that a class the rewriter cannot handle loads unchanged and is reported once. Called concurrently by
 * every thread that loads classes.
 */
final class CallSiteTransformer implements ClassFileTransformer {

    private final PackageFilter packages;
    private final CallSiteRewriter rewriter;
    private final ClassLoader agentLoader;
    private final ClassLoader platformLoader;
    private final AgentLog log;
    private final boolean verbose;
    private final Set<String> reportedFailures = ConcurrentHashMap.newKeySet();

    private final LongAdder classesRewritten = new LongAdder();
    private final LongAdder callSites = new LongAdder();
    private final LongAdder methodReferences = new LongAdder();

    CallSiteTransformer(PackageFilter packages, String clockInternalName, AgentLog log, boolean verbose) {
        this.packages = packages;
        this.rewriter = new CallSiteRewriter(clockInternalName);
        this.agentLoader = CallSiteTransformer.class.getClassLoader();
        this.platformLoader = ClassLoader.getPlatformClassLoader();
        this.log = log;
        this.verbose = verbose;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classFile) {
        // Boot and platform loaders hold the JDK; hidden and anonymous classes come without a name.
        if (loader == null || loader == agentLoader || className == null
                || loader == platformLoader
                || !packages.covers(className) || IgnoredPackages.reasonFor(className) != null) {
            return null;
        }
        try {
            RewrittenClass rewritten = rewriter.rewrite(classFile);
            if (rewritten == null) {
                return null;
            }
            classesRewritten.increment();
            callSites.add(rewritten.callSites());
            methodReferences.add(rewritten.methodReferences());
            if (verbose) {
                log.line("rewrote " + className.replace('/', '.') + ": " + rewritten.callSites() + " call sites, "
                        + rewritten.methodReferences() + " method references");
            }
            return rewritten.bytes();
        } catch (Throwable failure) {
            reportOnce(className, failure);
            return null;
        }
    }

    private void reportOnce(String className, Throwable failure) {
        try {
            if (reportedFailures.add(className)) {
                String reason = failure instanceof ClassFileException ? failure.getMessage() : failure.toString();
                log.line("left " + className.replace('/', '.') + " unchanged: " + reason);
            }
        } catch (Throwable reportingFailed) {
            // Out of memory while reporting: the class still loads unchanged, which is what matters.
        }
    }

    long classesRewritten() {
        return classesRewritten.sum();
    }

    long callSites() {
        return callSites.sum();
    }

    long methodReferences() {
        return methodReferences.sum();
    }

    long classesFailed() {
        return reportedFailures.size();
    }
}
