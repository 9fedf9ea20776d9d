package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.rewrite.RewriteScope;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * Retransforms the classes already loaded in the chosen packages: with the agent's transformer registered that
 * rewrites them (attach), with it removed that restores their original code (detach).
 */
final class LoadedClasses {

    /** Classes per retransformation; one failing class sends its batch through one by one. */
    private static final int BATCH_SIZE = 64;

    private LoadedClasses() {
    }

    /** @return how many classes were retransformed */
    static int retransform(Instrumentation instrumentation, RewriteScope scope, AgentLog log) {
        List<Class<?>> covered = new ArrayList<>();
        for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
            if (!isHidden(loaded) && instrumentation.isModifiableClass(loaded)
                    && scope.includes(loaded.getClassLoader(), loaded.getName().replace('.', '/'))) {
                covered.add(loaded);
            }
        }
        int retransformed = 0;
        for (int start = 0; start < covered.size(); start += BATCH_SIZE) {
            List<Class<?>> batch = covered.subList(start, Math.min(covered.size(), start + BATCH_SIZE));
            try {
                instrumentation.retransformClasses(batch.toArray(new Class<?>[0]));
                retransformed += batch.size();
            } catch (Throwable batchFailed) {
                retransformed += oneByOne(instrumentation, batch, log);
            }
        }
        return retransformed;
    }

    private static int oneByOne(Instrumentation instrumentation, List<Class<?>> batch, AgentLog log) {
        int retransformed = 0;
        for (Class<?> loaded : batch) {
            try {
                instrumentation.retransformClasses(loaded);
                retransformed++;
            } catch (Throwable failure) {
                log.note("left " + loaded.getName() + " as it was: could not retransform it: " + failure);
            }
        }
        return retransformed;
    }

    /**
     * Hidden classes (Java 15 and later) and the VM-anonymous classes before them have no class file to rewrite. Both
     * carry a '/' in their name, which no binary name of a class loaded from a class file has; {@code isHidden()}
     * does not exist on Java 11.
     */
    private static boolean isHidden(Class<?> loaded) {
        return loaded.getName().indexOf('/') >= 0;
    }
}
