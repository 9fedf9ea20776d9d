package io.clockagent.agent.internal.activecopy;

/**
 * Never instantiated: a copy of the agent that detaches loads this class, and the active copy, which sees every
 * class load, takes it as the request. See {@link ActiveCopy}.
 */
final class DetachSignal {

    private DetachSignal() {
    }
}
