#ifndef CLOCK_AGENT_AGENT_COPY_H
#define CLOCK_AGENT_AGENT_COPY_H

#include <jvmti.h>

#include "agent_options.h"

/*
 * Which way a start came in. It decides the phase the start runs in, where the options' property and the jar come
 * from, whether strict=true may stop the JVM, and what happens to the classes in scope loaded before the hook.
 */
typedef enum {
    /* Agent_OnLoad, before any Java runs: the hook goes on at VMInit, which rewrites what loaded before it. */
    WAY_AGENTPATH,
    /* premain, through java_agent_start.c: Java has judged the release and read the property, and names the jar. */
    WAY_PREMAIN,
    /* Agent_OnAttach (jcmd JVMTI.agent_load, jattach), into a running service: the classes loaded are rewritten. */
    WAY_ATTACH,
    /* agentmain (java -jar clock-agent.jar attach), through java_agent_start.c: an attach, as Java started it. */
    WAY_JAVA_ATTACH
} entry_way;

/*
 * This library's copy of the agent, one state for its life. The JVM loads a library named twice (JAVA_TOOL_OPTIONS
 * and the command line, or two JVMTI.agent_load) once, and calls its entry for each: the first start hooks, as with
 * two -javaagent copies, and the others leave alone what it set up. Changed atomically, by the start and the detach.
 */
typedef enum {
    /* Nothing hooked: no start yet, or the starts so far found the agent off or another copy active. */
    COPY_IDLE,
    /* The hook rewrites classes in scope (at the JVM's load: will, from VMInit on). */
    COPY_HOOKED,
    /*
     * Another copy held the JVM as this one came to take it (a -javaagent copy, whose transformer rewrites and whose
     * ticker ticks the one clock), or the JVM refused the hook at VMInit: the hook leaves every class as it is.
     */
    COPY_STANDING_DOWN,
    /* Detached: the hook off for good and the original code restored. */
    COPY_DETACHED
} copy_state;

/*
 * What the start (agent_entry.c) decided, which the hook, the Java side and the restore read. The start writes each
 * field once, before the hook goes on, and leaves them all empty when it does not hook; but `state`, which changes
 * through copy_becomes, and the counts, which the hook alone adds to, atomically.
 */
typedef struct {
    agent_options options;
    /*
     * The three sources' texts the options were parsed from (NULL for one not given), for the Java side, which parses
     * these very texts again with the Java parser: read again, the property and the environment variable may have
     * changed since, or decode otherwise through Java (a POSIX locale's, where these are UTF-8).
     */
    char *sources[SOURCE_COUNT];
    /* What this copy printed and claimed the JVM with, as the Java side's AgentVersion.banner writes it. */
    char *banner;
    /* clock-agent.jar, which holds the Java side. */
    char *jar_path;
    entry_way way;
    /* Whether sites are counted (verbose, report, dryRun): then each rewritten class is shown to the Java side. */
    int counts_sites;
    /* The environment the hook is set in, which the restore retransforms through. */
    jvmtiEnv *jvmti;
    copy_state state;
    /*
     * The hooks running now, each counted before it reads `state`, so that a detach can wait for those that read it
     * before the copy detached.
     */
    int hooks_running;
    /* The classes in scope the hook has seen, and those it rewrote (in a dry run: would have), each counted once. */
    long classes_scanned;
    long classes_rewritten;
} agent_copy;

extern agent_copy this_copy;

/* Whether the start came into a running service, where no start of it is left to keep out of. */
static inline int attached(entry_way way) {
    return way == WAY_ATTACH || way == WAY_JAVA_ATTACH;
}

/* Whether Java started it: Java judged the release, read the property and names the jar, and can start in Java. */
static inline int from_java(entry_way way) {
    return way == WAY_PREMAIN || way == WAY_JAVA_ATTACH;
}

static inline copy_state copy_now(void) {
    return __atomic_load_n(&this_copy.state, __ATOMIC_SEQ_CST);
}

static inline void copy_becomes(copy_state state) {
    __atomic_store_n(&this_copy.state, state, __ATOMIC_SEQ_CST);
}

#endif
