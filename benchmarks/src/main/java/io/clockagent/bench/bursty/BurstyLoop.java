package io.clockagent.bench.bursty;

import io.clockagent.bench.bursty.rewritten.RewrittenLoop;
import java.util.concurrent.CyclicBarrier;

/**
 * A reader in bursts, as a user first tries the agent: each thread alternates a loop of clock reads through a
 * rewritten call site ({@link RewrittenLoop}) with the same loop through a direct call, which the agent leaves alone
 * and which stands for the other work between bursts. The forked side of {@code BurstyLoopComparison}.
 *
 * <p>Arguments: threads, rounds, reads per loop. Prints one line a round and thread,
 * {@code round R thread T rewritten-ns-per-call X direct-ns-per-call Y}.
 */
public final class BurstyLoop {

    /** Where the sums go, so that the loops cannot be dropped. */
    private static volatile long sink;

    private BurstyLoop() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long reads = Long.parseLong(args[2]);
        CyclicBarrier roundStart = new CyclicBarrier(threads);
        Thread[] readers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int thread = t;
            readers[t] = new Thread(() -> {
                for (int round = 1; round <= rounds; round++) {
                    try {
                        roundStart.await();
                    } catch (Exception interrupted) {
                        throw new IllegalStateException(interrupted);
                    }
                    long startNanos = System.nanoTime();
                    long sum = RewrittenLoop.read(reads);
                    long middleNanos = System.nanoTime();
                    sum += directLoop(reads);
                    long endNanos = System.nanoTime();
                    sink = sum;
                    System.out.printf("round %d thread %d rewritten-ns-per-call %.4f direct-ns-per-call %.4f%n", round,
                            thread, (middleNanos - startNanos) / (double) reads, (endNanos - middleNanos)
                            / (double) reads);
                }
            }, "reader-" + t);
            readers[t].start();
        }
        for (Thread reader : readers) {
            reader.join();
        }
    }

    private static long directLoop(long reads) {
        long sum = 0;
        for (long i = 0; i < reads; i++) {
            sum += System.currentTimeMillis();
        }
        return sum;
    }
}
