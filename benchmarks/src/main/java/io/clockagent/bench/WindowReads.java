package io.clockagent.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The wall-clock reads each thread made between two snapshots of one process. The counter library appends a line per
 * thread and never removes one, so line {@code i} of both snapshots is the same thread, even where the kernel gave a
 * later thread an ended thread's id. Immutable.
 */
final class WindowReads {

    private final List<ThreadReads> threads;

    private WindowReads(List<ThreadReads> threads) {
        this.threads = threads;
    }

    static WindowReads between(List<ThreadReads> before, List<ThreadReads> after) {
        List<ThreadReads> window = new ArrayList<>();
        for (int i = 0; i < after.size(); i++) {
            ThreadReads end = after.get(i);
            long startReads = i < before.size() ? before.get(i).reads() : 0;
            if (end.reads() > startReads) {
                window.add(new ThreadReads(end.tid(), end.name(), end.reads() - startReads));
            }
        }
        window.sort(Comparator.comparingLong(ThreadReads::reads).reversed());
        return new WindowReads(window);
    }

    long reads(ThreadKind kind) {
        return threads.stream().filter(thread -> thread.kind() == kind).mapToLong(ThreadReads::reads).sum();
    }

    /** The threads of that kind that read in the window, most reads first. */
    List<ThreadReads> threads(ThreadKind kind) {
        return threads.stream().filter(thread -> thread.kind() == kind).toList();
    }
}
