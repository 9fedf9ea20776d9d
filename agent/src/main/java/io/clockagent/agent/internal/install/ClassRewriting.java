package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.rewrite.ClassFilter;

/**
 * What differs between the two starts once the agent runs: which class filter rewrites and counts the classes in
 * scope (the native library's C hook, or the Java transformer), as the report and the MBean read it, and how a detach
 * gives those classes their original code again.
 */
public interface ClassRewriting extends ClassFilter {

    /**
     * Stops rewriting for good and retransforms every loaded class in scope, which gives each class the JVM kept
     * original bytes for its original code again. Called once, on the detach thread.
     *
     * @return how many classes were retransformed
     */
    int restore();
}
