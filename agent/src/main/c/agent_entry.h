#ifndef CLOCK_AGENT_AGENT_ENTRY_H
#define CLOCK_AGENT_AGENT_ENTRY_H

#include <jni.h>

/*
 * What a start of the agent in this library came to, whichever way it came in; the -javaagent entry's Java side acts on
 * it (NativeStart), and the attach entry reports it to the JVM.
 */
typedef enum {
    /* The hook rewrites from now on; the banner, or why another copy keeps the JVM, has been printed. */
    ENTRY_HOOKED = 0,
    /* One line said that the options turn the agent off, or that another copy is active; the service runs as it did. */
    ENTRY_OFF = 1,
    /* strict=true and a bad option: one line said so, and the JVM must stop with status 1 before main. */
    ENTRY_STOP_JVM = 2,
    /* nativeFilter=false, no JVMTI or a refused hook: nothing was said or left done here; the agent starts in Java. */
    ENTRY_FILTER_IN_JAVA = 3,
    /*
     * One line said why the agent could not start (a bad option, an unsupported Java, no jar beside the library, a
     * refused hook); the service runs without it, and an attach reports a failure.
     */
    ENTRY_REFUSED = 4
} entry_start;

/*
 * The -javaagent entry's start, from premain, in the live phase: what Agent_OnLoad and VMInit do for -agentpath,
 * with the options' system property as Java reads it, and the agent jar the Java side starts from later. The Java
 * floor has been checked already. `attached` from agentmain: then as Agent_OnAttach into a running service.
 */
entry_start start_for_java_agent(JNIEnv *jni, const char *arguments, const char *property, const char *jar,
                                 int attached);

#endif
