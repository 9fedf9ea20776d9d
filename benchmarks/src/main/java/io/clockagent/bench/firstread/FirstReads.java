package io.clockagent.bench.firstread;

/**
 * The clock reads a service makes as it starts, timed from inside: its first {@code System.currentTimeMillis()}, the
 * one that resolves and initializes whatever a rewritten call site reads, then {@link #READS} more, run mostly in
 * the interpreter, as a start's reads are. Prints {@code first-read-ns N next-reads-ns N} and a checksum that keeps
 * the reads from being dropped.
 */
public final class FirstReads {

    /** The interpreter runs the first few hundred, until the JIT has compiled the loop. */
    public static final int READS = 1000;

    private FirstReads() {
    }

    public static void main(String[] args) {
        long startNanos = System.nanoTime();
        long first = System.currentTimeMillis();
        long firstDoneNanos = System.nanoTime();
        long sum = 0;
        for (int i = 0; i < READS; i++) {
            sum += System.currentTimeMillis();
        }
        long nextDoneNanos = System.nanoTime();
        System.out.println("first-read-ns " + (firstDoneNanos - startNanos) + " next-reads-ns "
                + (nextDoneNanos - firstDoneNanos) + " checksum " + ((first + sum) & 1));
    }
}
