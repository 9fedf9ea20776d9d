package io.clockagent.agent.internal;

/**
 * Which classes the agent may rewrite: those in the chosen packages, loaded by an application loader, and not on the
 * ignore list. The JDK's loaders and the agent's own are never in scope. Immutable.
 */
final class RewriteScope {

    private final PackageFilter packages;
    private final ClassLoader agentLoader = RewriteScope.class.getClassLoader();
    private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();

    RewriteScope(PackageFilter packages) {
        this.packages = packages;
    }

    /**
     * @param loader the defining loader, null for the boot loader
     * @param internalName such as {@code com/acme/Service}; null for classes that have none
     */
    boolean includes(ClassLoader loader, String internalName) {
        return loader != null && loader != platformLoader && loader != agentLoader && internalName != null
                && packages.covers(internalName) && IgnoredPackages.reasonFor(internalName) == null;
    }
}
