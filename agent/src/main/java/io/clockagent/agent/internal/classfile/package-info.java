/**
 * Reading and rewriting class files: the cursor, the constant pool, method bodies, and the rewriter that points
 * {@code System.currentTimeMillis()} call sites at the cached clock, with the counter that finds them. Pure functions
 * of the bytes they are given, with no state between calls; run on every class-loading thread at once, inside the
 * JVM's class loading, where a fault must never escape other than as a {@link ClassFileException}.
 *
 * <p>Public for {@code rewrite} (the rewriter, its exception and the counts of a rewritten class), {@code clock} (the
 * renamer, which turns the bundled clock class into {@code java.lang}'s) and {@code diagnostics} (the counts, in the
 * report).
 * The C rewriter in {@code agent/src/main/c/} mirrors this room; its constants are generated from here.
 *
 * <p>May depend on: nothing.
 */
package io.clockagent.agent.internal.classfile;
