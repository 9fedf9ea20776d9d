/**
 * The agent's only output: whole lines on the process's standard error, from any thread.
 *
 * <p>Public for every other room, which all write through it.
 *
 * <p>May depend on: nothing.
 */
package io.clockagent.agent.internal.log;
