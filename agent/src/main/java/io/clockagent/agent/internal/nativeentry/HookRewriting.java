package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.install.ClassRewriting;
import io.clockagent.agent.internal.rewrite.ClockClasses;
import io.clockagent.agent.internal.rewrite.PackageSelection;

/** The native start's class rewriting: the C hook, which rewrites and counts from the start, in C. */
final class HookRewriting implements ClassRewriting {

    private final PackageSelection packages;

    /** @param packages as the C hook has them, from the same options */
    HookRewriting(PackageSelection packages) {
        this.packages = packages;
    }

    @Override
    public boolean isNative() {
        return true;
    }

    @Override
    public String describe() {
        return "native";
    }

    @Override
    public long classesScannedNatively() {
        return EntryCalls.classesScanned();
    }

    @Override
    public long classesRewrittenNatively() {
        return EntryCalls.classesRewritten();
    }

    @Override
    public ClockClasses clockClasses() {
        return ClockClasses.of(packages, EntryCalls.clockMethodsRedirected(),
                EntryCalls.clockClassesLoadedFor());
    }

    @Override
    public int restore() {
        return EntryCalls.restoreClasses();
    }
}
