package io.clockagent.agent.internal.clock;

/**
 * How long before a tick boundary the parking ticker should ask to be woken, learnt from how late its own wake-ups
 * arrive. Used by the ticker thread only.
 *
 * <p>A parked thread wakes some time after its deadline: a few microseconds on bare metal with the timer slack
 * lowered, tens of microseconds on a virtual machine whose idle vCPU the hypervisor must first reschedule. Parking
 * until the boundary itself would leave the cached value that much behind after every tick. Instead the ticker parks until
 * the boundary minus this lead and spins the little that remains. The lead tracks the median wake-up lateness,
 * one step per observation: up when a wake-up came later than the lead, down when earlier. Half the wake-ups then
 * arrive before the boundary and spin for a short while, the other half publish a few microseconds late, and a host
 * that wakes threads promptly keeps a lead near zero and spins almost never. The cap bounds what the spinning can
 * cost on a host whose wake-ups are very late.
 */
final class WakeLead {

    static final long STEP_NANOS = 1_000L;
    static final long MAX_NANOS = 50_000L;

    private long nanos;

    long nanos() {
        return nanos;
    }

    /** @param latenessNanos how long after the requested deadline a park returned */
    void observe(long latenessNanos) {
        if (latenessNanos > nanos) {
            nanos = Math.min(MAX_NANOS, nanos + STEP_NANOS);
        } else {
            nanos = Math.max(0L, nanos - STEP_NANOS);
        }
    }
}
