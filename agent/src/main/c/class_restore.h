#ifndef CLOCK_AGENT_CLASS_RESTORE_H
#define CLOCK_AGENT_CLASS_RESTORE_H

#include <jni.h>
#include <jvmti.h>

/*
 * Retransforms every loaded class in scope through this copy's environment, in batches, one by one where a batch
 * fails; how many were retransformed. With the hook on that rewrites them; with it off for good, restores them.
 */
jint retransform_in_scope(JNIEnv *jni);

/*
 * Retransforms these classes as this copy's own retransformation: the hook counts and shows what it rewrites of them
 * as first rewrites, where another agent's retransformation of a class counted at its load is not counted again.
 * Whether the JVM retransformed them all.
 */
int retransform_as_this_copy(jvmtiEnv *jvmti, jint count, jclass *classes);

/* Whether this thread is in retransform_as_this_copy. */
int retransforming_for_this_copy(void);

/* EntryCalls.restoreClasses: the hook off for good and the original code restored; how many classes were. */
jint JNICALL restore_classes(JNIEnv *jni, jclass calls);

#endif
