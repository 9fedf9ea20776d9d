package io.clockagent.stacks.libraryclocks;

import java.util.Arrays;

/**
 * The ids one request took from one generator, in the order taken, summed up for the answer: how many, whether each
 * was greater than the one before, whether all differ (told apart from the order by sorting a copy), the least and the
 * greatest. Used by one thread.
 */
final class IdBatch {

    private final long[] ids;
    private int count;

    IdBatch(int capacity) {
        ids = new long[capacity];
    }

    void add(long id) {
        ids[count++] = id;
    }

    /** {@code NAME count=N increasing=B unique=B min=A max=B}; an empty batch has min and max 0. */
    String describe(String name) {
        boolean increasing = true;
        for (int i = 1; i < count; i++) {
            increasing &= ids[i] > ids[i - 1];
        }
        long[] sorted = Arrays.copyOf(ids, count);
        Arrays.sort(sorted);
        boolean unique = true;
        for (int i = 1; i < count; i++) {
            unique &= sorted[i] != sorted[i - 1];
        }
        return name + " count=" + count + " increasing=" + increasing + " unique=" + unique + " min="
                + (count == 0 ? 0 : sorted[0]) + " max=" + (count == 0 ? 0 : sorted[count - 1]);
    }
}
