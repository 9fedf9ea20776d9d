/**
 * What gets rewritten and the transformer that rewrites it: the package selection from the options, the scope that
 * adds the loaders and packages never rewritten, the transformer at the failure boundary between the JVM's class
 * loading and the rewriter, and the counts of what it did. The transformer runs on every class-loading thread at
 * once; the counts are read by the report and the MBean at any time.
 *
 * <p>Public for {@code options} (the selection it builds, and the packages it refuses to name), {@code nativefilter}
 * (the {@link HandOver} it takes over through, and the prefixes it matches), {@code diagnostics} (the counts) and
 * {@code install}, which builds them.
 *
 * <p>May depend on: activecopy, classfile, clock, log.
 */
package io.clockagent.agent.internal.rewrite;
