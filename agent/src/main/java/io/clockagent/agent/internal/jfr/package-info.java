/**
 * What the agent records in Flight Recorder: the late-tick event, and the recorder that commits it only while a
 * recording runs, without ever loading jdk.jfr's event classes before. Runs on the ticker thread
 * ({@code clock-agent-ticker}).
 *
 * <p>Public for {@code clock}, whose ticker records its late ticks here.
 *
 * <p>May depend on: nothing.
 */
package io.clockagent.agent.internal.jfr;
