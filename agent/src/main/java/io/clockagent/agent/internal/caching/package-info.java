/**
 * Whether the ticker keeps the cached value published: the {@code cache} option, the gate the ticker consults for it,
 * open whenever anything reads with {@code cache=always} and with {@code cache=auto} only while the reads it saves
 * cost more than the ticker does, the decision with the read rates it is made on, and the account of what caching
 * saved, net of the ticker ({@code SavedCpu}). Runs on the ticker thread
 * ({@code clock-agent-ticker}), from inside its loop; the decision's figures are read by the report and the MBean
 * from any thread.
 *
 * <p>Public for {@code clock} (the ticker consults the gate), {@code options} (the cache policy values),
 * {@code diagnostics} (which shows the decision's figures), and {@code install}, which passes the option on to the
 * ticker.
 *
 * <p>May depend on: nothing.
 */
package io.clockagent.agent.internal.caching;
