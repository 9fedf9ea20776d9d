package io.clockagent.agent;

import io.clockagent.agent.internal.install.NativeStart;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent's entry points: {@code premain}, {@code agentmain} and, for {@code java -jar clock-agent.jar},
 * {@code main}, and the Java floor they stand on: whether this JVM runs a Java release the agent supports, decided
 * before any class compiled for Java 11 is touched. Compiled for Java 8 and using nothing newer, so that a JVM older
 * than the agent supports can load it and be told so in one line, and is otherwise left exactly as it would be without
 * the agent; each entry point touches the rest of the agent only after the floor admits the JVM. The floor lives here
 * rather than in a class of its own because every JVM that starts the agent loads this class, and each class more
 * read from the jar before {@code main} costs startup time (benchmarks/README.md). Stateless.
 */
public final class ClockAgent {

    /** A constant, so javac copies its value here: reading it loads nothing compiled for Java 11. */
    static final int OLDEST_SUPPORTED_FEATURE = Internals.OLDEST_SUPPORTED_FEATURE;

    /**
     * The option sources besides the agent arguments, as {@code AgentOptions} names them; that class is compiled for
     * Java 11, so it cannot be asked here ({@code ClockAgentTest} holds the two to the same names).
     */
    static final String OPTIONS_PROPERTY = "clockagent.options";
    static final String OPTIONS_VARIABLE = "CLOCK_AGENT_OPTIONS";

    private ClockAgent() {
    }

    /**
     * Called by the JVM for {@code -javaagent:clock-agent.jar=OPTIONS}, before {@code main}. Below Java 24 the native
     * start runs right here, in the application class loader that already holds the jar open: nothing it does there
     * needs the internals' own module, and it is spared a second opening of the jar, a class loader, a reflective call
     * and the internals' gateway, each a class more read from the jar (benchmarks/README.md). The classes it loads here
     * hold no state of the agent's. From Java 24 on, and wherever the native start cannot serve, the internals' own
     * loader takes over ({@link Internals#startNatively}, {@link Internals#startInJava}). Before all of it,
     * {@code enabled=false} turns the agent off ({@link #turnedOff}).
     */
    public static void premain(String options, Instrumentation instrumentation) {
        String specificationVersion = System.getProperty("java.specification.version");
        if (turnedOff(options, refusal(specificationVersion) != null)
                || !admitsAgent(specificationVersion, options, true)) {
            return;
        }
        if (featureOf(specificationVersion) >= Internals.FIRST_RELEASE_RESTRICTING_LIBRARIES) {
            Internals.startNatively(options, instrumentation);
        } else if (!startedNatively(options, instrumentation)) {
            Internals.startInJava(options, instrumentation);
        }
    }

    /**
     * NativeStart's answer; false, for the Java start, if it fails outright (its classes cannot load here, or memory
     * runs out): nothing from the agent may stop the JVM's start but {@code strict=true}. Where the C half had
     * started already, the Java start finds the JVM claimed and stands aside.
     */
    private static boolean startedNatively(String options, Instrumentation instrumentation) {
        try {
            return NativeStart.startedNatively(options, instrumentation);
        } catch (Throwable cannotStart) {
            return false;
        }
    }

    /**
     * Called by the JVM when {@code java -jar clock-agent.jar attach|detach PID} loads the agent into a running
     * process: {@code detach} detaches, anything else is the options to attach with.
     */
    public static void agentmain(String options, Instrumentation instrumentation) {
        if (admitsAgent(System.getProperty("java.specification.version"), options, false)) {
            Internals.agentmain(options, instrumentation);
        }
    }

    /** {@code java -jar clock-agent.jar COMMAND}; see {@link Cli}. */
    public static void main(String[] arguments) {
        if (!admitsCommand()) {
            System.exit(1);
        }
        Cli.main(arguments);
    }

    /**
     * For {@code premain} and {@code agentmain}: true when the agent may install. Otherwise prints why, and at startup
     * with {@code strict=true} stops the JVM with status 1, as a bad option would.
     */
    private static boolean admitsAgent(String specificationVersion, String agentArguments, boolean atStartup) {
        String refusal = refusal(specificationVersion);
        if (refusal == null) {
            return true;
        }
        PrintStream err = standardError();
        if (atStartup && strictRequested(agentArguments, System.getProperty(OPTIONS_PROPERTY),
                System.getenv(OPTIONS_VARIABLE))) {
            err.println("clock-agent: unsupported Java, stopping the JVM (strict=true): " + refusal);
            System.exit(1);
        }
        err.println("clock-agent: off, the service runs without it: " + refusal);
        return false;
    }

    /**
     * For {@code premain}: whether {@code enabled=false} in the agent arguments or the system property turns the agent
     * off, said in one line before anything more of the agent loads, the native library included; and where the Java
     * floor refuses the JVM, in the environment variable too, so that {@code strict=true} cannot stop a JVM that the
     * agent was switched off in. Elsewhere the variable is left to the native start's C half or the installer, which
     * read it anyway: Java's first {@code getenv} reads the whole environment, half a millisecond or more of a start.
     */
    private static boolean turnedOff(String agentArguments, boolean readVariable) {
        String source = turnedOffBy(agentArguments, System.getProperty(OPTIONS_PROPERTY),
                readVariable ? System.getenv(OPTIONS_VARIABLE) : null);
        if (source != null) {
            standardError().println("clock-agent: " + turnedOffLine(source));
        }
        return source != null;
    }

    /**
     * The strongest source that says {@code enabled=false}, named as {@code AgentOptions.turnedOffBy} names it; null
     * where none does. Any such token counts, whatever else its source says ({@code ClockAgentTest} holds this to
     * {@code AgentOptions}' answer).
     */
    static String turnedOffBy(String agentArguments, String property, String variable) {
        String[][] sources = {
            {agentArguments, "agent arguments"},
            {property, "system property " + OPTIONS_PROPERTY},
            {variable, OPTIONS_VARIABLE},
        };
        for (String[] source : sources) {
            if (source[0] == null) {
                continue;
            }
            if (valuesOf(source[0], "enabled").contains("false")) {
                return source[1];
            }
        }
        return null;
    }

    /** {@code AgentOptions.turnedOffLine}, which this class cannot load. */
    static String turnedOffLine(String source) {
        return "off (enabled=false from " + source + "); the service runs without it";
    }

    /** For {@code java -jar clock-agent.jar}: true when the commands may run, otherwise prints why. */
    private static boolean admitsCommand() {
        String refusal = refusal(System.getProperty("java.specification.version"));
        if (refusal != null) {
            standardError().println("clock-agent: " + refusal);
        }
        return refusal == null;
    }

    /**
     * @param specificationVersion the JVM's {@code java.specification.version}: {@code 1.8} for Java 8, {@code 11}
     *     for Java 11
     * @return null when the agent supports that release, otherwise why not, as in
     *     {@code Java 8 is not supported (11 or later is)}
     */
    static String refusal(String specificationVersion) {
        int feature = featureOf(specificationVersion);
        if (feature >= OLDEST_SUPPORTED_FEATURE) {
            return null;
        }
        if (feature < 0) {
            return "cannot tell which Java this is (java.specification.version '" + specificationVersion + "'; "
                    + OLDEST_SUPPORTED_FEATURE + " or later is supported)";
        }
        return "Java " + feature + " is not supported (" + OLDEST_SUPPORTED_FEATURE + " or later is)";
    }

    /** The feature release in a specification version, {@code 1.8} and {@code 8} alike; -1 when it has none. */
    static int featureOf(String specificationVersion) {
        if (specificationVersion == null) {
            return -1;
        }
        String feature = specificationVersion.startsWith("1.") ? specificationVersion.substring(2)
                : specificationVersion;
        if (feature.isEmpty() || feature.length() > 4) {
            return -1;
        }
        for (int i = 0; i < feature.length(); i++) {
            if (!Character.isDigit(feature.charAt(i))) {
                return -1;
            }
        }
        return Integer.parseInt(feature);
    }

    /**
     * Whether the strongest source that sets {@code strict} sets it to {@code true}: the agent arguments win over the
     * system property, which wins over the environment variable, as when the options are read in full.
     *
     * @param sourcesStrongestFirst option strings in the {@code key=value,...} form; null where a source is unset
     */
    static boolean strictRequested(String... sourcesStrongestFirst) {
        for (String options : sourcesStrongestFirst) {
            String strict = options == null ? null : lastValue(options, "strict");
            if (strict != null) {
                return strict.equals("true");
            }
        }
        return false;
    }

    private static String lastValue(String options, String key) {
        List<String> values = valuesOf(options, key);
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }

    /**
     * The values of the {@code key=value} tokens of {@code options} with this key, in order, trimmed as the options'
     * parser trims them. Read in place, each character once and no token copied but these, as an option string may
     * be as long as an argfile allows.
     */
    private static List<String> valuesOf(String options, String key) {
        List<String> values = new ArrayList<>();
        int start = 0;
        while (start <= options.length()) {
            int equals = -1;
            int end = start;
            for (; end < options.length() && options.charAt(end) != ','; end++) {
                equals = equals < 0 && options.charAt(end) == '=' ? end : equals;
            }
            if (equals > start) {
                int keyStart = start;
                int keyEnd = equals;
                while (keyStart < keyEnd && options.charAt(keyStart) <= ' ') {
                    keyStart++;
                }
                while (keyEnd > keyStart && options.charAt(keyEnd - 1) <= ' ') {
                    keyEnd--;
                }
                if (keyEnd - keyStart == key.length() && options.regionMatches(keyStart, key, 0, key.length())) {
                    values.add(options.substring(equals + 1, end).trim());
                }
            }
            start = end + 1;
        }
        return values;
    }

    /**
     * The process's standard error itself, not {@code System.err}, which an application may have replaced by the
     * time an agent is attached.
     */
    private static PrintStream standardError() {
        return new PrintStream(new FileOutputStream(FileDescriptor.err), true);
    }
}
