package io.clockagent.agent.internal.rewrite;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The definitions the transformer handed rewritten bytes to that may not have completed, for the detach to wait for;
 * noted by every class-loading thread, awaited by the detach's. The JVM defines a class from the transformer's bytes
 * only after every transformer and agent after it has run and the class is parsed: however long that takes, on the
 * thread the transformer ran on, before the frame under the JDK's call of the transformers (the defining native
 * method, or another agent's retransformation) returns. Each is known by that frame's class and method: a thread
 * whose stack no longer holds such a frame has left it. Not by its height, as the native hook knows it
 * (open_definitions.c): another thread's stack shows hidden frames (a lambda's, a method handle's) that this thread's
 * own leaves out, on some releases and not on others, so that the heights do not compare. A thread that is in another
 * definition under such a frame is waited for too, which ends as soon as that definition does.
 */
final class OpenDefinitions {

    /** The JDK's entry into the transformers, which the JVM calls from the defining frame. */
    private static final String TRANSFORMERS_CLASS = "sun.instrument.InstrumentationImpl";
    private static final String TRANSFORMERS_METHOD = "transform";
    private static final long POLL_MILLIS = 1;
    /**
     * How long a detach waits for the definitions in flight, at most: another agent's transformer that never returns
     * must not hold it forever. The native hook's detach waits as long (open_definitions.c).
     */
    static final int WAIT_MOST_SECONDS = 10;
    /** The line, after the agent's prefix, for definitions still open then: their number and the seconds waited. */
    static final String UNDER_WAY_FORMAT = "detach: %d class definitions still under way after %d s (another agent's"
            + " transformer may hold them); the classes they define may keep the rewritten bytes, whose reads take the"
            + " direct clock";

    /** Guarded by this; weak, so that a thread that ends is not kept. */
    private final Map<Thread, List<DefiningFrame>> open = new WeakHashMap<>();

    /** On the thread the transformer runs on, as it hands rewritten bytes back. */
    void opened() {
        Thread thread = Thread.currentThread();
        StackTraceElement[] stack = thread.getStackTrace();
        int below = 0;
        while (below < stack.length && !isTransformersEntry(stack[below])) {
            below++;
        }
        below++;
        if (below >= stack.length) {
            return;
        }
        DefiningFrame frame = new DefiningFrame(stack.length - below, stack[below]);
        synchronized (this) {
            List<DefiningFrame> frames = open.get(thread);
            if (frames == null) {
                frames = new ArrayList<>(1);
                open.put(thread, frames);
            }
            // This thread's definitions at this height or above have closed, as its stack is no higher now.
            for (Iterator<DefiningFrame> each = frames.iterator(); each.hasNext();) {
                if (each.next().height >= frame.height) {
                    each.remove();
                }
            }
            frames.add(frame);
        }
    }

    /**
     * Once no transformer hands bytes back any more: returns when every definition opened before on another thread has
     * closed, this thread is interrupted, or {@code System.nanoTime()} passes the deadline; how many were open then.
     */
    int awaitClosed(long deadlineNanos) {
        while (true) {
            int stillOpen = 0;
            synchronized (this) {
                // The caller's own would never close while it waits here; it is in none, as it runs the detach.
                open.remove(Thread.currentThread());
                for (Iterator<Map.Entry<Thread, List<DefiningFrame>>> each = open.entrySet().iterator();
                        each.hasNext();) {
                    Map.Entry<Thread, List<DefiningFrame>> thread = each.next();
                    StackTraceElement[] stack = thread.getKey().getStackTrace();
                    thread.getValue().removeIf(frame -> !frame.openIn(stack));
                    if (thread.getValue().isEmpty()) {
                        each.remove();
                    }
                    stillOpen += thread.getValue().size();
                }
            }
            if (stillOpen == 0 || System.nanoTime() - deadlineNanos >= 0) {
                return stillOpen;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return stillOpen;
            }
        }
    }

    private static boolean isTransformersEntry(StackTraceElement frame) {
        return TRANSFORMERS_CLASS.equals(frame.getClassName()) && TRANSFORMERS_METHOD.equals(frame.getMethodName());
    }

    /**
     * A frame a definition is open under, with its height from the bottom of its thread's stack as the thread itself
     * sees it, by which its own later definitions tell which of its earlier ones have closed.
     */
    private static final class DefiningFrame {

        final int height;
        final String className;
        final String methodName;

        DefiningFrame(int height, StackTraceElement frame) {
            this.height = height;
            this.className = frame.getClassName();
            this.methodName = frame.getMethodName();
        }

        /** Whether a thread whose stack is this may still be in the frame; an ended thread's stack is empty. */
        boolean openIn(StackTraceElement[] stack) {
            for (StackTraceElement frame : stack) {
                if (className.equals(frame.getClassName()) && methodName.equals(frame.getMethodName())) {
                    return true;
                }
            }
            return false;
        }
    }
}
