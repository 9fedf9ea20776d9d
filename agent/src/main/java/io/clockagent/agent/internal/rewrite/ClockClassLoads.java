package io.clockagent.agent.internal.rewrite;

import io.clockagent.agent.internal.classfile.ClockMethods;
import io.clockagent.agent.internal.classfile.LibraryClock;
import io.clockagent.agent.internal.log.AgentLog;
import io.clockagent.agent.internal.classfile.ClockMethod;
import io.clockagent.agent.internal.classfile.DeclaredMethods;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Says once, for each class of a clock method in force, that it loads after all: the redirect keeps it from loading
 * only where every use of it is rewritten, and a use outside the included packages, another member of the class, or
 * reflection loads it, and with it, once initialized, the thread that refreshes its value. And notes which methods'
 * uses a rewrite redirected, for {@link ClockClasses}. Called by the transformer for every class that loads, on the
 * loading thread; thread-safe.
 */
public final class ClockClassLoads {

    /** Where the agent's own classes lie, whose frames (the transformer's) come between the loader's and the caller's. */
    private static final String AGENT_PACKAGE = "io.clockagent.agent.";

    /** The clock methods watched, the first of those in force: as many as the redirected set has bits. */
    static final int MOST_WATCHED = Long.SIZE;

    private final ClockMethods clocks;
    private final AgentLog log;
    /** Bit {@code i} set once uses of the {@code i}-th clock method were redirected. */
    private final AtomicLong redirected = new AtomicLong();
    /** By the same index, the class its class loaded for, set once; null while it has not. */
    private final AtomicReferenceArray<String> loadedFor;

    ClockClassLoads(ClockMethods clocks, AgentLog log) {
        this.clocks = clocks;
        this.log = log;
        this.loadedFor = new AtomicReferenceArray<>(Math.min(clocks.methods().size(), MOST_WATCHED));
    }

    /**
     * Says that a clock method's class loads after all, once, or, where it declares no static method that the
     * service's own clocks name, that the method is withdrawn.
     *
     * @param className the internal name of a class loading, as the JVM hands it to a class-file hook
     */
    void loading(String className, byte[] classFile) {
        if (!clocks.ownsClass(className)) {
            return;
        }
        String loadedFor = null;
        boolean first = false;
        List<String> withdrawn = new ArrayList<>();
        for (int i = 0; i < this.loadedFor.length(); i++) {
            ClockMethod method = clocks.methods().get(i);
            if (!method.owner().equals(className)) {
                continue;
            }
            loadedFor = loadedFor == null ? loadedFor() : loadedFor;
            if (this.loadedFor.compareAndSet(i, null, loadedFor)) {
                first = true;
                if (!method.knownStatic() && !DeclaredMethods.declaresStaticClockMethod(classFile, method.name())) {
                    clocks.withdraw(i);
                    withdrawn.add(method.name());
                }
            }
        }
        String binaryName = className.replace('/', '.');
        for (String name : withdrawn) {
            log.note(withdrawnLine(binaryName, name, binaryName + "." + name));
        }
        if (first && withdrawn.isEmpty()) {
            LibraryClock library = LibraryClock.ownedBy(className);
            log.note(line(binaryName, library == null ? "" : library.describe(), loadedFor));
        }
    }

    /**
     * The line, which the C hook prints from the same format, that a class of the service's own clocks declares no
     * static method {@code clocks} names, whose uses the rewrite then leaves as they are.
     */
    public static String withdrawnLine(String binaryName, String methodName, String entry) {
        return binaryName + " has no static long " + methodName + "() that clocks=" + entry + " names: its uses load"
                + " unchanged from here on";
    }

    /** Notes the clock methods whose classes a class the rewrite redirected names: its uses of them went. */
    void redirectedIn(byte[] classFile) {
        long named = clocks.ownersNamedIn(classFile, MOST_WATCHED);
        if ((redirected.get() & named) != named) {
            redirected.getAndAccumulate(named, (was, added) -> was | added);
        }
    }

    ClockClasses clockClasses() {
        String[] loaded = new String[loadedFor.length()];
        for (int i = 0; i < loaded.length; i++) {
            loaded[i] = loadedFor.get(i);
        }
        return ClockClasses.of(clocks, redirected.get(), loaded);
    }

    /**
     * The line, which the C hook prints from the same format: {@code cn.hutool.core.date.SystemClock (Hutool's clock,
     * thread 'System Clock') loaded for com.acme.Legacy, ...}.
     *
     * @param what what the class is, such as {@link LibraryClock#describe}, or empty
     */
    public static String line(String binaryName, String what, String loadedFor) {
        return binaryName + what + " loaded for " + loadedFor + ", which the agent does not redirect: the clock it"
                + " starts once initialized runs beside the agent's";
    }

    /**
     * The class whose code made the JVM load this one: the first frame of the loading thread that is neither the
     * JDK's, a class loader's nor the agent's; "an unknown class" where none is (a JDK thread loading it).
     */
    private static String loadedFor() {
        Optional<String> caller = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames ->
                frames.map(StackWalker.StackFrame::getDeclaringClass)
                        .filter(frame -> !ClassLoader.class.isAssignableFrom(frame) && !isJdkOrAgent(frame.getName()))
                        .map(Class::getName)
                        .findFirst());
        return caller.orElse("an unknown class");
    }

    private static boolean isJdkOrAgent(String className) {
        return className.startsWith("java.") || className.startsWith("jdk.") || className.startsWith("sun.")
                || className.startsWith(AGENT_PACKAGE);
    }

}
