#ifndef CLOCK_AGENT_JAVA_SIDE_LOADER_H
#define CLOCK_AGENT_JAVA_SIDE_LOADER_H

#include <jni.h>

/*
 * Loads the agent's Java side from the jar and starts it, on this thread: its Installation, or NULL once one line has
 * said why not.
 */
jobject load_java_side(JNIEnv *jni);

#endif
