/**
 * What gets rewritten and the transformer that rewrites it: the package selection from the options, the scope that
 * adds the loaders and packages never rewritten, the transformer at the failure boundary between the JVM's class
 * loading and the rewriter, the counts of what it did, and what either class filter (the transformer, or the C hook)
 * tells the agent: {@link ClassFilter} for the report and the MBean, {@link ClassLoadSignals} for the installation.
 * The transformer runs on every class-loading thread at once; the counts are read by the report and the MBean at any
 * time.
 *
 * <p>Public for {@code options} (the selection it builds, and the packages it refuses to name), {@code diagnostics}
 * (the counts and the filter), and {@code install} and {@code nativeentry}, which build them.
 *
 * <p>May depend on: activecopy, classfile, clock, log.
 */
package io.clockagent.agent.internal.rewrite;
