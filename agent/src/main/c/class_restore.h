#ifndef CLOCK_AGENT_CLASS_RESTORE_H
#define CLOCK_AGENT_CLASS_RESTORE_H

#include <jni.h>

/*
 * Retransforms every loaded class in scope through this copy's environment, in batches, one by one where a batch
 * fails; how many were retransformed. With the hook on that rewrites them; with it off for good, restores them.
 */
jint retransform_in_scope(JNIEnv *jni);

/* EntryCalls.restoreClasses: the hook off for good and the original code restored; how many classes were. */
jint JNICALL restore_classes(JNIEnv *jni, jclass calls);

#endif
