#ifndef CLOCK_AGENT_JAVA_SIDE_LOADER_H
#define CLOCK_AGENT_JAVA_SIDE_LOADER_H

#include <jni.h>

/* The methods of the Java side's Installation that the library calls. */
typedef struct {
    jmethodID clock_defined;
    jmethodID rewrote_natively;
    jmethodID left_instant_reads;
    jmethodID jmx_starting;
    jmethodID detach_requested;
} installation_methods;

/*
 * Loads the agent's Java side from the jar, finds the Installation's methods the library calls (`methods`) and starts
 * it, on this thread: its Installation, or NULL once one line has said why not, with no exception pending.
 */
jobject load_java_side(JNIEnv *jni, installation_methods *methods);

#endif
