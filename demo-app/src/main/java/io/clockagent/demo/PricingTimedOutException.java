package io.clockagent.demo;

/** A {@link DeadlineExceededException} met while pricing, with the clock reads pricing had made by then. */
final class PricingTimedOutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long clockReads;

    PricingTimedOutException(DeadlineExceededException cause, long clockReads) {
        super(cause.getMessage(), cause, false, false);
        this.clockReads = clockReads;
    }

    long clockReads() {
        return clockReads;
    }
}
