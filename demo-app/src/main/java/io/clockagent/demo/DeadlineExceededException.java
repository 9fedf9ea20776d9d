package io.clockagent.demo;

/** Thrown when a request runs past its {@link Deadline}. */
final class DeadlineExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long overrunMillis;

    DeadlineExceededException(long overrunMillis) {
        super("deadline exceeded by " + overrunMillis + " ms", null, false, false);
        this.overrunMillis = overrunMillis;
    }

    long overrunMillis() {
        return overrunMillis;
    }
}
