package io.clockagent.it.inspector;

import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

/**
 * A test-only agent that records the bytes every class is defined from, to show what clock-agent did to them.
 * Started after clock-agent ({@code -javaagent:clock-agent.jar -javaagent:inspector.jar=DUMP_DIRECTORY}); stateless.
 *
 * <p>Retransformation-capable transformers run in the order they were added, each receiving the previous one's
 * output, and clock-agent adds its transformer first. So what this agent sees is exactly what the JVM defines the
 * class from: clock-agent's rewrite, or the original bytes when clock-agent left the class alone.
 */
public final class InspectorAgent {

    private InspectorAgent() {
    }

    /** @param dumpDirectory where the recorded classes are written when the JVM exits */
    public static void premain(String dumpDirectory, Instrumentation instrumentation) {
        ClassRecorder recorder = new ClassRecorder();
        instrumentation.addTransformer(recorder, true);
        Runtime.getRuntime().addShutdownHook(
                new Thread(() -> recorder.writeTo(Path.of(dumpDirectory)), "inspector-dump"));
    }
}
