#ifndef CLOCK_AGENT_CLASS_RESTORE_H
#define CLOCK_AGENT_CLASS_RESTORE_H

#include <jni.h>
#include <jvmti.h>

/*
 * What the hook held back of one retransformation of this copy's own, told whether the JVM retransformed the classes:
 * the JVM may refuse a batch after the hook has seen some of its classes, which the one-by-one retry shows it again.
 */
typedef void (*retransform_settle)(JNIEnv *jni, int retransformed);

/*
 * Retransforms every loaded class in scope through this copy's environment, in batches, one by one where a batch
 * fails; how many were retransformed. With the hook on that rewrites them, settling what it held back after each
 * retransformation through `settle`; with it off for good (`settle` NULL), restores them.
 */
jint retransform_in_scope(JNIEnv *jni, retransform_settle settle);

/*
 * Whether this thread retransforms for this copy: the hook counts and shows what it rewrites then as first rewrites
 * (held back until settled), where another agent's retransformation of a class counted at its load is not counted
 * again.
 */
int retransforming_for_this_copy(void);

/* EntryCalls.restoreClasses: the hook off for good and the original code restored; how many classes were. */
jint JNICALL restore_classes(JNIEnv *jni, jclass calls);

#endif
