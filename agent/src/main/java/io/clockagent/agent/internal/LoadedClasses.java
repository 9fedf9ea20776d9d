package io.clockagent.agent.internal;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * Retransforms the classes already loaded in the chosen packages: with the agent's transformer registered that
 * rewrites them (attach, and at startup those an AOT cache loaded first), with it removed that restores their
 * original code (detach).
 */
final class LoadedClasses {

    /** Classes per retransformation; one failing class sends its batch through one by one. */
    private static final int BATCH_SIZE = 64;

    private LoadedClasses() {
    }

    /** @return how many classes were retransformed */
    static int retransform(Instrumentation instrumentation, RewriteScope scope, AgentLog log) {
        return inBatches(instrumentation, covered(instrumentation, scope), log);
    }

    /**
     * At startup: the classes in the chosen packages that were loaded before the agent, as an AOT cache (JDK 24 and
     * later) loads the classes it holds, and whose class files name the clock. Retransforming redefines a class and
     * would throw away what the cache saved for it, so the others are left as they are.
     *
     * @return how many classes were retransformed
     */
    static int retransformClockReaders(Instrumentation instrumentation, RewriteScope scope, AgentLog log) {
        List<Class<?>> readers = new ArrayList<>();
        for (Class<?> loaded : covered(instrumentation, scope)) {
            if (mayReadTheClock(loaded)) {
                readers.add(loaded);
            }
        }
        return inBatches(instrumentation, readers, log);
    }

    private static List<Class<?>> covered(Instrumentation instrumentation, RewriteScope scope) {
        List<Class<?>> covered = new ArrayList<>();
        for (Class<?> loaded : instrumentation.getAllLoadedClasses()) {
            // The loader first: at startup nearly every class is the JDK's, and its name would cost a string each.
            ClassLoader loader = loaded.getClassLoader();
            if (scope.includesLoader(loader) && !loaded.isHidden() && instrumentation.isModifiableClass(loaded)
                    && scope.includes(loader, loaded.getName().replace('.', '/'))) {
                covered.add(loaded);
            }
        }
        return covered;
    }

    /** Reads the class file the class was defined from; one that cannot be read or walked may read the clock. */
    private static boolean mayReadTheClock(Class<?> loaded) {
        String resource = loaded.getName().replace('.', '/') + ".class";
        try (InputStream classFile = loaded.getClassLoader().getResourceAsStream(resource)) {
            return classFile == null || CallSiteRewriter.namesTheClock(classFile.readAllBytes());
        } catch (Throwable unreadable) {
            // Whatever the loader threw: the retransformation decides, and the transformer reports a class it cannot
            // rewrite.
            return true;
        }
    }

    private static int inBatches(Instrumentation instrumentation, List<Class<?>> classes, AgentLog log) {
        int retransformed = 0;
        for (int start = 0; start < classes.size(); start += BATCH_SIZE) {
            List<Class<?>> batch = classes.subList(start, Math.min(classes.size(), start + BATCH_SIZE));
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
                log.line("left " + loaded.getName() + " as it was: could not retransform it: " + failure);
            }
        }
        return retransformed;
    }
}
