package io.clockagent.demo;

/** The time by which one request must be done; confined to the thread handling that request. */
final class Deadline {

    private final long deadlineMillis;

    private Deadline(long deadlineMillis) {
        this.deadlineMillis = deadlineMillis;
    }

    static Deadline after(long startMillis, long budgetMillis) {
        return new Deadline(startMillis + budgetMillis);
    }

    /**
     * Reads the clock once and fails the request if its time is up.
     *
     * @throws DeadlineExceededException when the deadline has passed
     */
    void check() {
        long nowMillis = System.currentTimeMillis();
        if (nowMillis > deadlineMillis) {
            throw new DeadlineExceededException(nowMillis - deadlineMillis);
        }
    }
}
