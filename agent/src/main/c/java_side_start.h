#ifndef CLOCK_AGENT_JAVA_SIDE_START_H
#define CLOCK_AGENT_JAVA_SIDE_START_H

#include <jni.h>

/*
 * Between the Java side's lifecycle (java_side.c) and its start (java_side_start.c): the lifecycle decides when to
 * start, the start decides how, and reports back.
 */

/* Starts the start thread, which waits for its moment and then loads the Java side; false if it could not. */
int start_thread(JNIEnv *jni);

/* Loads the Java side from the jar and starts it, on this thread; it reports through the two calls below. */
void load_java_side(JNIEnv *jni);

/* The Java side started as `started` (its Installation): from now on it is told at once. False if it cannot be. */
int java_side_serving(JNIEnv *jni, jobject started);

/* The Java side will not start: what was held for it is freed, and nothing more is held. */
void java_side_failed(void);

/* Says, in one line, why the ticker did not start, so that reads take the direct clock. */
void ticker_did_not_start(const char *why);

/* Whether JMX's start or a detach request asks for the Java side now, after waiting up to `millis` for one. */
int java_side_asked_within(long millis);

#endif
