package io.clockagent.bench.noop;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;

/**
 * An agent that does nothing: what {@code -javaagent} costs before any agent code runs (opening the jar, loading
 * the instrument library and this class). The startup figures quote it as the floor under clock-agent's own cost.
 * With the option {@code transformer} it also registers, as clock-agent does, a retransform-capable transformer
 * that changes nothing: the JVM then hands every class it loads to Java and back, which is the floor under the cost
 * clock-agent adds per loaded class. Stateless.
 */
public final class NoopAgent {

    static final String TRANSFORMER_OPTION = "transformer";

    private NoopAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        if (TRANSFORMER_OPTION.equals(options)) {
            instrumentation.addTransformer(new UnchangingTransformer(), true);
        }
    }

    /** Returns null for every class: "no change". The interface's default methods already do exactly that. */
    private static final class UnchangingTransformer implements ClassFileTransformer {
    }
}
