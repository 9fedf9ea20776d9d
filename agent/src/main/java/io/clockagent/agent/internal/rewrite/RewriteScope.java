package io.clockagent.agent.internal.rewrite;

/**
 * Which classes the agent may rewrite: those in the chosen packages, loaded by an application loader, and not on the
 * ignore list. The JDK's loaders and the agent's own are never in scope. Immutable.
 */
public final class RewriteScope {

    private final PackageSelection packages;
    /** False when no include reaches the JDK's or the agent's packages: then no class needs checking against them. */
    private final boolean mayCoverIgnored;
    private final ClassLoader agentLoader = RewriteScope.class.getClassLoader();
    private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();

    public RewriteScope(PackageSelection packages) {
        this.packages = packages;
        this.mayCoverIgnored = IgnoredPackages.mayBeCoveredBy(packages);
    }

    /**
     * @param loader the defining loader, null for the boot loader
     * @param internalName such as {@code com/acme/Service}; null for classes that have none
     */
    public boolean includes(ClassLoader loader, String internalName) {
        return loader != null && loader != platformLoader && loader != agentLoader && internalName != null
                && packages.covers(internalName)
                && (!mayCoverIgnored || IgnoredPackages.reasonFor(internalName) == null);
    }

    public PackageSelection packages() {
        return packages;
    }
}
