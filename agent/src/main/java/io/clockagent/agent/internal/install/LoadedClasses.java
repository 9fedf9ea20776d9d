package io.clockagent.agent.internal.install;

import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.rewrite.CallSiteTransformer;
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

    /**
     * @param settling the transformer that counts what each retransformation shows it once that one took (attach), or
     *     null (detach)
     * @return how many classes were retransformed
     */
    static int retransform(Instrumentation instrumentation, RewriteScope scope, AgentLog log,
            CallSiteTransformer settling) {
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
            if (retransformed(instrumentation, settling, batch.toArray(new Class<?>[0])) == null) {
                retransformed += batch.size();
            } else {
                retransformed += oneByOne(instrumentation, batch, log, settling);
            }
        }
        return retransformed;
    }

    private static int oneByOne(Instrumentation instrumentation, List<Class<?>> batch, AgentLog log,
            CallSiteTransformer settling) {
        int retransformed = 0;
        for (Class<?> loaded : batch) {
            Throwable failure = retransformed(instrumentation, settling, loaded);
            if (failure == null) {
                retransformed++;
            } else {
                log.note("left " + loaded.getName() + " as it was: could not retransform it: " + failure);
            }
        }
        return retransformed;
    }

    /** Retransforms the classes and settles what the transformer held back of it: null, or why the JVM refused. */
    private static Throwable retransformed(Instrumentation instrumentation, CallSiteTransformer settling,
            Class<?>... classes) {
        Throwable failure = null;
        try {
            instrumentation.retransformClasses(classes);
        } catch (Throwable refused) {
            failure = refused;
        }
        if (settling != null) {
            settling.settleRetransformation(failure == null);
        }
        return failure;
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
