package io.clockagent.bench.noop;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * An agent that does nothing: what {@code -javaagent} costs before any agent code runs (opening the jar, loading
 * the instrument library and this class). The startup figures quote it as the floor under clock-agent's own cost.
 * With the option {@code transformer} it also registers, as clock-agent does, a retransform-capable transformer
 * that changes nothing: the JVM then hands every class it loads to Java and back, which is the floor under the cost
 * clock-agent adds per loaded class. With {@code openJavaLang} it opens {@code java.lang} to itself, as clock-agent
 * must from Java 24 on to load its library without a warning (JEP 472): the floor under clock-agent's own share
 * there, since the JDK's opening runs the JVM's first lambdas. Stateless.
 */
public final class NoopAgent {

    static final String TRANSFORMER_OPTION = "transformer";
    static final String OPEN_JAVA_LANG_OPTION = "openJavaLang";

    private NoopAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        if (TRANSFORMER_OPTION.equals(options)) {
            instrumentation.addTransformer(new UnchangingTransformer(), true);
        } else if (OPEN_JAVA_LANG_OPTION.equals(options)) {
            instrumentation.redefineModule(Object.class.getModule(), Set.of(), Map.of(),
                    Map.of("java.lang", Set.of(NoopAgent.class.getModule())), Set.of(), Map.of());
        }
    }

    /** Returns null for every class: "no change". The interface's default methods already do exactly that. */
    private static final class UnchangingTransformer implements ClassFileTransformer {
    }
}
