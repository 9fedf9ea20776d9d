#ifndef CLOCK_AGENT_OPEN_DEFINITIONS_H
#define CLOCK_AGENT_OPEN_DEFINITIONS_H

#include <jni.h>
#include <jvmti.h>

/*
 * On the thread the hook runs on, as it hands the JVM rewritten bytes: that thread's definition (a load, or a
 * retransformation) stays open until the frame the JVM called the hook under returns.
 */
void definition_opened(jvmtiEnv *jvmti, JNIEnv *jni);

/*
 * Once no hook hands bytes over any more: returns when every definition opened before, on another thread than the
 * caller's, has closed, or once CLOCK_MONOTONIC passes `deadline_nanos`; how many were still open then.
 */
int await_open_definitions(jvmtiEnv *jvmti, JNIEnv *jni, long long deadline_nanos);

#endif
