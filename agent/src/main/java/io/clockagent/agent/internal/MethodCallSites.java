package io.clockagent.agent.internal;

/**
 * The uses of {@code System.currentTimeMillis()} in one method.
 *
 * @param method name and descriptor, such as {@code now()J}
 * @param callSites {@code invokestatic} instructions
 * @param methodReferences {@code System::currentTimeMillis} references and {@code ldc} method handles
 */
record MethodCallSites(String method, int callSites, int methodReferences) {
}
