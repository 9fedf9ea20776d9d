package io.clockagent.agent.internal.nativeentry;

import io.clockagent.agent.internal.install.ClassRewriting;

/** The native start's class rewriting: the C hook, which rewrites and counts from the start, in C. */
final class HookRewriting implements ClassRewriting {

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
    public int restore() {
        return EntryCalls.restoreClasses();
    }
}
