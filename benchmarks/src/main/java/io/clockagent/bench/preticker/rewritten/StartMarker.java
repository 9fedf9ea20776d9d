package io.clockagent.bench.preticker.rewritten;

/**
 * A class in the include's scope that {@code StartKeeper} defines again and again, each time in a class loader of its
 * own, so that the agent's hook sees classes in scope go on loading. It reads no clock: the hook only has to count it.
 */
public final class StartMarker {

    private StartMarker() {
    }
}
