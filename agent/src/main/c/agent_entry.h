#ifndef CLOCK_AGENT_AGENT_ENTRY_H
#define CLOCK_AGENT_AGENT_ENTRY_H

#include <jni.h>

/* What a start of the agent in this library came to; the -javaagent entry's Java side acts on it (NativeStart). */
typedef enum {
    /* The hook rewrites from now on; the banner, or why another copy keeps the JVM, has been printed. */
    ENTRY_HOOKED = 0,
    /* One line said why the agent is off; the service runs without it. */
    ENTRY_OFF = 1,
    /* strict=true and a bad option: one line said so, and the JVM must stop with status 1 before main. */
    ENTRY_STOP_JVM = 2,
    /* nativeFilter=false, no JVMTI or a refused hook: nothing was said or left done here; the agent starts in Java. */
    ENTRY_FILTER_IN_JAVA = 3
} entry_start;

/*
 * The -javaagent entry's start, from premain, in the live phase: what Agent_OnLoad and VMInit do for -agentpath,
 * with the options' system property as Java reads it, and the agent jar the Java side starts from later. The Java
 * floor has been checked already.
 */
entry_start start_for_java_agent(JNIEnv *jni, const char *arguments, const char *property, const char *jar);

#endif
