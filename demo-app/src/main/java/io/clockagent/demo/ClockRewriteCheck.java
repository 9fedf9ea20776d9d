package io.clockagent.demo;

import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.function.LongSupplier;

/**
 * Tells which class this package's {@code System.currentTimeMillis()} references resolve to: {@code java.lang.System}
 * as compiled, or the agent's cached clock once the agent has rewritten the package. Stateless.
 *
 * <p>A call site leaves no trace a program can see, but a method reference does: a serializable lambda records the
 * class of the method it points to, and the agent redirects method references together with calls.
 */
final class ClockRewriteCheck {

    static final String UNKNOWN = "unknown";

    private ClockRewriteCheck() {
    }

    /** The binary name of the class the clock reads of this package go to, or {@link #UNKNOWN}. */
    static String clockClass() {
        LongSupplier now = (LongSupplier & Serializable) System::currentTimeMillis;
        try {
            Method writeReplace = now.getClass().getDeclaredMethod("writeReplace");
            writeReplace.setAccessible(true);
            SerializedLambda lambda = (SerializedLambda) writeReplace.invoke(now);
            return lambda.getImplClass().replace('/', '.');
        } catch (ReflectiveOperationException | RuntimeException | LinkageError unexpected) {
            return UNKNOWN;
        }
    }
}
